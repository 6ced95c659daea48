import Foundation
import XCTest

@testable import EndpointKit

/// The raw field lines a libcurl response head keeps, parsed only when read.
final class HeaderLinesTests: XCTestCase {
    private func lines(_ text: [String]) -> HeaderLines {
        var lines = HeaderLines()
        for line in text { Array(line.utf8).withUnsafeBytes { lines.append($0) } }
        return lines
    }

    func testThatLookupsIgnoreCaseAndJoinRepeatedFields() {
        let head = lines(["Content-Type: application/json", "Set-Cookie: a=1", "set-cookie:b=2 ", "X-Empty:"])
        XCTAssertEqual(head.value(for: "content-type"), "application/json")
        XCTAssertEqual(head.value(for: "SET-COOKIE"), "a=1, b=2")
        XCTAssertEqual(head.value(for: "X-Empty"), "")
        XCTAssertNil(head.value(for: "Content-Length"))
        XCTAssertNil(head.value(for: "Content-Typ"), "a prefix is another name")
        XCTAssertTrue(head.hasSetCookie)
        XCTAssertFalse(lines(["Cookie: a=1", "Set-Cookies: b=2", "X: set-cookie"]).hasSetCookie)
        XCTAssertTrue(lines(["SET-COOKIE : a=1"]).hasSetCookie, "noted with its name trimmed, in any case")
        XCTAssertEqual(head.fields.map(\.name), ["Content-Type", "Set-Cookie", "set-cookie", "X-Empty"])
    }

    func testThatAnIntegerFieldReadsAsInt64WouldReadItsValue() {
        let values = [
            "0", "879", " 42 ", "+7", "-3", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "", "+", "12a", "1 2", "0x10", "\u{0660}",
        ]
        for value in values {
            let head = lines(["Content-Length: \(value)"])
            XCTAssertEqual(
                head.contentLength, Int64(value.trimmingCharacters(in: .whitespaces)), "Content-Length: \(value)")
        }
        XCTAssertNil(lines(["Content-Length: 5", "content-length: 5"]).contentLength, "repeated")
        XCTAssertNil(lines(["Content-Type: 5", "Content-Lengths: 5"]).contentLength, "missing")
        XCTAssertEqual(lines(["X: 1", "content-LENGTH: 12", "Y: 2"]).contentLength, 12, "any case, any place")
        var reused = lines(["Content-Length: 5", "Set-Cookie: a=1"])
        reused.removeAll()
        XCTAssertNil(reused.contentLength, "a new head forgets the last one's fields")
        XCTAssertFalse(reused.hasSetCookie)
        Array("Content-Length: 7".utf8).withUnsafeBytes { reused.append($0) }
        XCTAssertEqual(reused.contentLength, 7)
    }

    func testThatOnlyTheSameDataValueCountsAsTheSameStorage() {
        let body = Data(repeating: 7, count: 4096)
        XCTAssertTrue(body.isSameStorage(as: body))
        XCTAssertFalse(Data(body).isSameStorage(as: Data(repeating: 7, count: 4096)), "equal bytes elsewhere")
        XCTAssertFalse(body.isSameStorage(as: body.prefix(10)), "a slice of it")
        XCTAssertFalse(Data([1, 2]).isSameStorage(as: Data([1, 3])))
        XCTAssertTrue(Data().isSameStorage(as: Data()))
    }

    func testThatFoldedLinesContinueTheirFieldAndMalformedLinesAreDropped() {
        let head = lines(["  before any field", ": no name", "no colon", "A: 1  ", "\t folded ", "B: 2"])
        XCTAssertEqual(head.fields.map(\.name), ["A", "B"])
        XCTAssertEqual(head.value(for: "a"), "1 folded")
        XCTAssertEqual(head.value(for: "b"), "2")
    }

    func testThatNamesCompareIgnoringASCIICaseOnly() {
        XCTAssertTrue("Content-Type".caseInsensitiveEquals("content-TYPE"))
        XCTAssertTrue("".caseInsensitiveEquals(""))
        XCTAssertTrue("caf\u{00E9}".caseInsensitiveEquals("CAF\u{00E9}"))
        XCTAssertFalse("caf\u{00E9}".caseInsensitiveEquals("CAF\u{00C9}"), "only ASCII letters fold")
        XCTAssertFalse("X-[".caseInsensitiveEquals("x-{"), "[ and { differ by the case bit but are not letters")
        XCTAssertFalse("Accept".caseInsensitiveEquals("Accept-Encoding"))
        XCTAssertFalse("abc".caseInsensitiveEquals("abd"))
        XCTAssertTrue(Substring("xETag").dropFirst().description.caseInsensitiveEquals("etag"))
    }

    func testThatACopyKeepsItsFieldsWhenTheOriginalChanges() {
        var original = lines(["A: 1", "Content-Length: 5"])
        let copy = original
        original.removeAll()
        Array("B: 2".utf8).withUnsafeBytes { original.append($0) }
        XCTAssertEqual(copy.fields.map(\.name), ["A", "Content-Length"])
        XCTAssertEqual(copy.contentLength, 5)
        XCTAssertEqual(original.fields.map(\.name), ["B"])
        var grown = copy
        Array("\tmore".utf8).withUnsafeBytes { grown.append($0) }
        XCTAssertEqual(grown.value(for: "content-length"), "5 more")
        XCTAssertEqual(copy.value(for: "content-length"), "5", "a folded line changes only its own copy")
    }

    func testThatAHeadOfManyLongFieldsKeepsThemAll() {
        // Far past the first buffer (512 bytes): the bytes and the entries move together.
        let text = (0..<200).map { "X-Field-\($0): " + String(repeating: "v", count: $0 % 50) }
        var head = lines(text)
        Array("\t tail".utf8).withUnsafeBytes { head.append($0) }
        XCTAssertEqual(head.fields.count, 200)
        for index in [0, 1, 63, 128, 198] {
            XCTAssertEqual(head.value(for: "x-field-\(index)"), String(repeating: "v", count: index % 50))
        }
        XCTAssertEqual(head.value(for: "X-Field-199"), String(repeating: "v", count: 199 % 50) + " tail")
    }

    func testThatANewHeadStartsEmpty() {
        var head = lines(["A: 1"])
        head.removeAll()
        XCTAssertTrue(head.isEmpty)
        XCTAssertNil(head.value(for: "A"))
        // Non-letters are compared exactly: "[" is not "{".
        XCTAssertNil(lines(["X-[: 1"]).value(for: "x-{"))
    }
}
