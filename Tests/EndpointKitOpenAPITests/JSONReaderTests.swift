import XCTest

@testable import EndpointKitOpenAPIReader

final class JSONReaderTests: XCTestCase {
    /// Reads `text`, failing the test on an error.
    private func read(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Node? {
        do {
            return try JSONReader.read(text)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    /// The error reading `bytes` gives.
    private func failure(_ bytes: [UInt8]) -> ReadError? {
        do {
            _ = try JSONReader.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The error reading `text` gives.
    private func failure(_ text: String) -> ReadError? { failure(Array(text.utf8)) }

    func testObjectKeepsMemberOrderAndNesting() {
        let node = read(#"{"b": [1, {"c": null}], "a": true, "z": false}"#)
        XCTAssertEqual(
            node,
            .object([
                .init("b", .array([.number("1"), .object([.init("c", .null)])])), .init("a", .bool(true)),
                .init("z", .bool(false)),
            ]))
    }

    func testScalarsAtTheTopLevel() {
        XCTAssertEqual(read(" \"x\" "), .string("x"))
        XCTAssertEqual(read("null"), .null)
        XCTAssertEqual(read("\n\t42\r\n"), .number("42"))
        XCTAssertEqual(read("[]"), .array([]))
        XCTAssertEqual(read("{}"), .object([]))
    }

    func testNumbersKeepTheirLiteral() {
        for literal in ["1.8e19", "-0", "9223372036854775808", "0", "-1.5E-3", "2e+10", "0.000", "1E400"] {
            XCTAssertEqual(read(literal), .number(literal), literal)
        }
    }

    func testNumbersOutsideTheGrammarAreErrors() {
        XCTAssertEqual(failure("01"), ReadError("a number cannot have a leading zero", line: 1, column: 2))
        XCTAssertEqual(failure("1."), ReadError("expected a digit after '.'", line: 1, column: 3))
        XCTAssertEqual(failure("-"), ReadError("expected a digit in the number", line: 1, column: 2))
        XCTAssertEqual(failure("1e"), ReadError("expected a digit in the exponent", line: 1, column: 3))
        XCTAssertEqual(failure("+1")?.message, "expected a value, found '+'")
        XCTAssertEqual(failure(".5")?.message, "expected a value, found '.'")
        XCTAssertEqual(failure("[1 2]"), ReadError("expected ',' or ']', found '2'", line: 1, column: 4))
    }

    func testEveryEscape() {
        XCTAssertEqual(
            read(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC""#), .string("\" \\ / \u{8} \u{C} \n \r \t A é €"))
    }

    func testSurrogatePairIsOneScalar() {
        XCTAssertEqual(read(#""\uD83D\uDE00""#), .string("😀"))
    }

    func testLoneSurrogatesAreErrors() {
        XCTAssertEqual(
            failure(#""a\uD83Dx""#),
            ReadError("lone high surrogate \\uD83D (a low surrogate must follow)", line: 1, column: 3))
        XCTAssertEqual(failure(#""\uDE00""#), ReadError("lone low surrogate \\uDE00", line: 1, column: 2))
        XCTAssertEqual(
            failure(#""\uD83D\u0041""#),
            ReadError("high surrogate \\uD83D not followed by a low surrogate", line: 1, column: 2))
    }

    func testBadEscapesAreErrors() {
        XCTAssertEqual(failure(#""\x41""#), ReadError("unknown escape \\'x'", line: 1, column: 2))
        XCTAssertEqual(failure(#""\u12G4""#), ReadError("\\u needs four hexadecimal digits", line: 1, column: 2))
    }

    func testControlCharacterInAStringIsAnError() {
        XCTAssertEqual(
            failure("[\"a\u{9}b\"]"),
            ReadError("control character byte 0x09 in a string (escape it)", line: 1, column: 4))
        XCTAssertEqual(failure("\"a\nb\"")?.line, 1)
    }

    func testNonASCIITextIsKept() {
        XCTAssertEqual(read("{\"名前\": \"été 😀\"}"), .object([.init("名前", .string("été 😀"))]))
    }

    func testByteOrderMarkIsSkipped() {
        XCTAssertEqual(try JSONReader.read([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), .array([.number("1")]))
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertEqual(failure([0x22, 0x61, 0xC3, 0x28, 0x22]), ReadError("invalid UTF-8", line: 1, column: 3))
        XCTAssertEqual(failure([0x22, 0xED, 0xA0, 0x80, 0x22])?.message, "invalid UTF-8")
        XCTAssertEqual(failure([0x22, 0xC0, 0xAF, 0x22])?.message, "invalid UTF-8")
    }

    func testDuplicateKeysAreKeptAndTheSubscriptFindsTheFirst() {
        let node = read(#"{"a": 1, "a": 2}"#)
        XCTAssertEqual(node?.members?.count, 2)
        XCTAssertEqual(node?["a"], .number("1"))
    }

    func testTrailingCommasAreErrors() {
        XCTAssertEqual(failure("[1,]"), ReadError("expected a value, found ']'", line: 1, column: 4))
        XCTAssertEqual(failure("{\"a\":1,}"), ReadError("expected a string key, found '}'", line: 1, column: 8))
    }

    func testStructuralErrorsCarryLineAndColumn() {
        XCTAssertEqual(
            failure("{\n  \"a\" 1\n}"), ReadError("expected ':' after the key, found '1'", line: 2, column: 7))
        XCTAssertEqual(failure("{\n  a: 1}"), ReadError("expected a string key, found 'a'", line: 2, column: 3))
        XCTAssertEqual(failure("[1] 2"), ReadError("unexpected '2' after the value", line: 1, column: 5))
        XCTAssertEqual(failure(""), ReadError("expected a value, found the end of the document", line: 1, column: 1))
        XCTAssertEqual(failure("[\"é\", tru]"), ReadError("expected a value, found 't'", line: 1, column: 7))
        XCTAssertEqual(
            failure("[1,\r\n  "), ReadError("expected a value, found the end of the document", line: 2, column: 3))
        XCTAssertEqual(failure("\"abc"), ReadError("unterminated string", line: 1, column: 1))
        XCTAssertEqual(failure("// c\n1")?.message, "expected a value, found '/'")
    }

    func testNestingDepthIsLimited() {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNotNil(read(deepest))
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        XCTAssertEqual(failure(tooDeep), ReadError("nesting deeper than 512 arrays and objects", line: 1, column: 513))
        XCTAssertEqual(
            failure(String(repeating: "{\"a\":", count: 100_000))?.message, "nesting deeper than 512 arrays and objects"
        )
    }

    func testTruncatedDocumentsAreErrorsNotCrashes() {
        let text = #"{"a": [1, -2.5e3, "x\u00e9", true, {"b": null}], "c": "\uD83D\uDE00"}"#
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            XCTAssertNotNil(failure(Array(bytes[0..<length])), "prefix of \(length) bytes")
        }
    }
}
