import XCTest

@testable import EndpointKitOpenAPIGenerator

/// Names, pointers, literals and doc comments of generated code.
final class GeneratorNamingTests: XCTestCase {
    func testTypeNames() {
        XCTAssertEqual(Naming.typeName("createMessage"), "CreateMessage")
        XCTAssertEqual(Naming.typeName("messages/create"), "MessagesCreate")
        XCTAssertEqual(Naming.typeName("Messages_Create"), "MessagesCreate")
        XCTAssertEqual(Naming.typeName("2fa-code"), "_2faCode")
        XCTAssertEqual(Naming.typeName(""), "Unnamed")
        XCTAssertEqual(Naming.typeName("héllo wörld"), "HLloWRld")
    }

    func testMemberNames() {
        XCTAssertEqual(Naming.memberName("max_tokens"), "maxTokens")
        XCTAssertEqual(Naming.memberName("URL"), "url")
        XCTAssertEqual(Naming.memberName("URLPath"), "urlPath")
        XCTAssertEqual(Naming.memberName("X-Rate-Limit"), "xRateLimit")
        XCTAssertEqual(Naming.memberName("userID"), "userID")
        XCTAssertEqual(Naming.memberName("$ref"), "ref")
        XCTAssertEqual(Naming.memberName("123"), "_123")
        XCTAssertEqual(Naming.memberName(""), "value")
        XCTAssertEqual(Naming.escaped("default"), "`default`")
        var scope = NameScope(reserving: Naming.unusableMembers)
        XCTAssertEqual(scope.claimMember("self"), "selfValue")
        XCTAssertEqual(scope.claimMember("a_b"), "aB")
        XCTAssertEqual(scope.claimMember("aB"), "aB2")
    }

    func testLiteralsAndDocumentation() {
        XCTAssertEqual(Naming.literal("a\"b\\c\n\u{2028}"), #""a\"b\\c\n\u{2028}""#)
        XCTAssertEqual(
            CodeWriter.documentationLines("one\r\ntwo\u{2028}three\n\n\n\nfour\u{0}"),
            ["one", "two", "three", "", "four"])
        XCTAssertEqual(SampleWriter.rawLiteral("a\"#b"), "##\"a\"#b\"##")
        XCTAssertEqual(SampleWriter.rawLiteral("\\#(x)"), "##\"\\#(x)\"##")
    }

    func testPointers() {
        let pointer = JSONPointer(["paths", "/users/{id}", "get", "a~b"])
        XCTAssertEqual(pointer.description, "#/paths/~1users~1{id}/get/a~0b")
        XCTAssertEqual(JSONPointer(reference: pointer.description), pointer)
        XCTAssertEqual(JSONPointer(reference: "#/components/schemas/A%20B")?.tokens, ["components", "schemas", "A B"])
        XCTAssertNil(JSONPointer(reference: "other.yaml#/A"))
    }
}
