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
        XCTAssertTrue(head.contains("set-cookie"))
        XCTAssertFalse(head.contains("cookie"))
        XCTAssertEqual(head.fields.map(\.name), ["Content-Type", "Set-Cookie", "set-cookie", "X-Empty"])
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

    func testThatANewHeadStartsEmpty() {
        var head = lines(["A: 1"])
        head.removeAll()
        XCTAssertTrue(head.isEmpty)
        XCTAssertNil(head.value(for: "A"))
        // Non-letters are compared exactly: "[" is not "{".
        XCTAssertNil(lines(["X-[: 1"]).value(for: "x-{"))
    }
}
