import EndpointKitTestServer
import Foundation
import XCTest

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Inputs the libFuzzer harness (`Fuzz/run.sh`) found, kept as tests. Each input is stored as the
/// harness wrote it (base64); its first two bytes picked the fuzz target and its part, the rest is
/// what reached EndpointKit.
final class FuzzRegressionTests: LoopbackTestCase {
    /// The bytes that reached EndpointKit: the fuzz input without its two selector bytes.
    private func payload(_ base64: String) throws -> [UInt8] {
        let data = try XCTUnwrap(Data(base64Encoded: base64))
        return Array(data.dropFirst(2))
    }

    private struct Delete: APIRequest {
        typealias Response = Empty
        var method: HTTPMethod { .delete }
        var path: RequestPath { "/posts/1" }
    }

    /// A 2xx body with a message (`{"message":"Deleted"}`) is not a business failure when there is
    /// no envelope: NoEnvelope's success is the HTTP status alone.
    func testThatA2xxBodyWithAMessageIsSuccessWithoutAnEnvelope() async throws {
        let body = try payload("AAZ7ImVycm9yIjp7Im1lc3NhZ2UiOiJub3BlIiwiY29kZSI6N319")
        XCTAssertEqual(try Delete().decode(makeContext(String(decoding: body, as: UTF8.self))), Empty())

        server.route("/posts/1") { _ in .json(["message": "Deleted", "code": 7]) }
        let result = await client.send(Delete())
        guard case .success(let value, _) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(value, Empty())
        // An envelope with a business status still checks it.
        let envelope = KeyPathEnvelope(status: "code", success: [0], message: "message", payload: "")
        XCTAssertThrowsError(try Delete().decode(makeContext(#"{"code":7,"message":"no"}"#, envelope: envelope)))
    }

    /// Dots and spaces in any order before the name cannot leave `..`, `.` or a hidden name, and a
    /// `/` followed by a combining mark is still a separator.
    func testThatSanitizedFileNamesStayOneVisibleComponent() throws {
        let found = [
            String(decoding: try payload(Self.leadingDots), as: UTF8.self),
            String(decoding: try payload(Self.combinedSlash), as: UTF8.self),
        ]
        for value in found + [" ..", " .", ". .hidden", "a/\u{301}b", "..\\\u{301}..", "x/\u{301}../\u{301}.."] {
            for name in [
                DownloadDestination.sanitizedFileName(value),
                DownloadDestination.sanitizedFileName(fromContentDisposition: value),
                DownloadDestination.sanitizedFileName(fromContentDisposition: "attachment; filename=\"\(value)\""),
            ] {
                guard let name else { continue }
                XCTAssertFalse(name.hasPrefix("."), name.debugDescription)
                XCTAssertFalse(name.unicodeScalars.contains { $0 == "/" || $0 == "\\" }, name.debugDescription)
            }
        }
        XCTAssertNil(DownloadDestination.sanitizedFileName(" .."))
        XCTAssertEqual(DownloadDestination.sanitizedFileName(". .hidden"), "hidden")
        XCTAssertEqual(DownloadDestination.sanitizedFileName("a/\u{301}b"), "\u{301}b")
    }

    private struct Fetch: DownloadRequest {
        let folder: URL
        var path: RequestPath { "/files/report" }
        var destination: DownloadDestination { .directory(folder) }
        var isResumable: Bool { false }
    }

    /// Over HTTP: a suggested name of `" .."` falls back to the URL's name inside the folder.
    func testThatADotDotNameAfterASpaceDownloadsIntoTheFolder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        server.route("/files/report") { _ in
            .response(
                status: 200, headers: [("Content-Disposition", #"attachment; filename=" ..""#)],
                body: Data("inside".utf8))
        }
        client = makeClient { $0.partialDownloadsDirectory = folder.appendingPathComponent("partials") }
        let url = try await client.value(for: Fetch(folder: folder))
        XCTAssertEqual(url.standardizedFileURL, folder.appendingPathComponent("report").standardizedFileURL)
        XCTAssertEqual(try Data(contentsOf: url), Data("inside".utf8))
    }

    /// `max-age=1e400` (or `inf`) is capped at 2^31 seconds (RFC 9111 §1.2.2) instead of making
    /// the entry fresh forever, and an `Age` of `inf` cannot make the freshness NaN. The harness's
    /// property (freshness is finite) caught it on the input `[2, 2, 1, 13] + "max-age=1e400"`.
    func testThatHugeDeltaSecondsAreCappedAndFreshnessStaysFinite() throws {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        func freshUntil(_ headers: [String: String]) throws -> Date? {
            let response = TransportResponse(response: makeHTTPResponse(headers: headers), data: Data("x".utf8))
            let request = URLRequest(url: URL(string: "http://127.0.0.1/test")!)
            let entry = CachedResponse.make(
                from: response, request: request, key: "k", policy: CachePolicy(), isSharedCache: false, now: now)
            return try XCTUnwrap(entry).freshUntil
        }
        let cap: TimeInterval = 2_147_483_648
        XCTAssertEqual(try freshUntil(["Cache-Control": "max-age=1e400"]), now.addingTimeInterval(cap))
        XCTAssertEqual(try freshUntil(["Cache-Control": "max-age=inf"]), now.addingTimeInterval(cap))
        XCTAssertEqual(try freshUntil(["Cache-Control": "max-age=60"]), now.addingTimeInterval(60))
        let aged = try XCTUnwrap(try freshUntil(["Cache-Control": "max-age=inf", "Age": "inf"]))
        XCTAssertTrue(aged.timeIntervalSinceReferenceDate.isFinite)
        XCTAssertEqual(
            try freshUntil(["Cache-Control": "max-age=60", "Age": "1e400"]), now.addingTimeInterval(60 - cap))
    }

    /// A non-ASCII `Retry-After`, `Expires` or `Date` is not an HTTP date; before the check it
    /// reached swift-corelibs-foundation's DateFormatter, which trapped ("Incorrect range") on it.
    func testThatANonASCIIHTTPDateIsRejectedWithoutReachingDateFormatter() throws {
        let value = String(decoding: try payload("AgNXZWQsIDIx2bCciyAwNjI14NQ3OjI4OjAwIEdNVA=="), as: UTF8.self)
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        XCTAssertNil(RetryPolicy.parseRetryAfter(value, now: now))
        XCTAssertNil(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2065 07:28:00 GMT\u{301}", now: now))
        XCTAssertNotNil(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2065 07:28:00 GMT", now: now))
        let response = TransportResponse(
            response: makeHTTPResponse(headers: ["Expires": value, "Date": value]), data: Data("x".utf8))
        let entry = CachedResponse.make(
            from: response, request: URLRequest(url: URL(string: "http://127.0.0.1/test")!), key: "k",
            policy: CachePolicy(), isSharedCache: false, now: now)
        XCTAssertNotNil(entry)
        XCTAssertNil(entry?.freshUntil, "an invalid Expires means already expired")
    }

    #if os(Linux) && canImport(CCurlShim)
    /// Feeds lines to a `CurlResponseHead`, each in a buffer of exactly its size.
    private func consume(_ bytes: [UInt8], into head: inout CurlResponseHead) {
        var line: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            line.append(byte)
            if byte == 0x0A || index == bytes.count - 1 {
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: line.count, alignment: 1)
                buffer.copyBytes(from: line)
                _ = head.consume(UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                line = []
            }
        }
    }

    /// A status line cut short after two digits is not read past its end.
    func testThatAShortStatusLineIsNotReadPastItsEnd() throws {
        var head = CurlResponseHead()
        consume(try payload("AgZIVFRQLwQvAw8AAQAAQDEuMSsA7SAxMA=="), into: &head)
        XCTAssertEqual(head.statusCode, 0)
        var short = CurlResponseHead()
        _ = Array("HTTP/1.1 20".utf8).withUnsafeBytes { short.consume($0) }
        XCTAssertEqual(short.statusCode, 0)
        var full = CurlResponseHead()
        _ = Array("HTTP/1.1 204".utf8).withUnsafeBytes { full.consume($0) }
        XCTAssertEqual(full.statusCode, 204)
    }

    /// A whitespace-led line before the first field is dropped, not read as a field named "".
    func testThatAWhitespaceLineBeforeTheFirstFieldIsDropped() throws {
        var head = CurlResponseHead()
        consume(try payload(Self.leadingWhitespace), into: &head)
        XCTAssertFalse(head.fields.contains { $0.name.isEmpty }, "\(head.fields)")
        var simple = CurlResponseHead()
        consume(Array("HTTP/1.1 200 OK\r\n  :x\r\nA: 1\r\n  folded\r\n\r\n".utf8), into: &simple)
        XCTAssertEqual(simple.fields.map(\.name), ["A"])
        XCTAssertEqual(simple.value(for: "a"), "1 folded")
    }
    #endif

    private static let leadingDots =
        "AgEJAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        + "AAAAACAAAAAALi4AHz9jmZnZmWEg"
    private static let combinedSlash = "AgFvJTAwQzMlQTcucGRmOyBmaWz///8AZT0jcmVzdW1I1FRQAAAAL82YIg=="
    private static let leadingWhitespace =
        "AgYgdGluXWZvbCxkZQ0KIAB/IGZkwQ0KICA6ZWcgNA0KWC1BOiAxDQogIGZvbGRuZ3RoOiA0DQpYLUE6IDENCiAgZg0KNQ0KeyAx"
        + "DQogIGZvbCxkZQ0KIAB/IGZkwQ0KICBmb2wsZGUNCiAgZmTBDQr//wo="
}
