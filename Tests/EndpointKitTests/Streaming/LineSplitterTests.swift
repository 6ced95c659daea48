import Foundation
import XCTest

@testable import EndpointKit
@testable import EndpointKitStreaming

final class LineSplitterTests: XCTestCase {
    private func lines(_ chunks: [String], limit: Int = 1 << 20) throws -> (lines: [String], rest: String?) {
        var splitter = LineSplitter(limit: limit)
        var lines: [String] = []
        for chunk in chunks {
            try Data(chunk.utf8).withUnsafeBytes { bytes in
                try splitter.split(bytes) { lines.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        return (lines, splitter.finish().map { String(decoding: $0, as: UTF8.self) })
    }

    func testThatLinesEndInLFCROrCRLF() throws {
        XCTAssertEqual(try lines(["a\nb\rc\r\nd"]).lines, ["a", "b", "c"])
        XCTAssertEqual(try lines(["a\nb\rc\r\nd"]).rest, "d")
        XCTAssertEqual(try lines(["\n\r\r\n"]).lines, ["", "", ""])
    }

    func testThatLinesAndLineEndsSpanChunks() throws {
        XCTAssertEqual(try lines(["ab", "c\r", "\nd", "e\n"]).lines, ["abc", "de"])
        XCTAssertEqual(try lines(["a\r", "\r", "b\r"]).lines, ["a", "", "b"])
        XCTAssertEqual(try lines(["a\r", "b"]).lines, ["a"])
        XCTAssertNil(try lines(["a\r", "\n"]).rest)
    }

    func testThatALineOverTheLimitFails() throws {
        XCTAssertEqual(try lines(["12345\n"], limit: 5).lines, ["12345"])
        XCTAssertThrowsError(try lines(["123456\n"], limit: 5))
        XCTAssertThrowsError(try lines(["123", "456"], limit: 5))
    }
}
