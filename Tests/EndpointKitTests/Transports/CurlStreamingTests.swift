#if os(Linux)
import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The building blocks for uploads, downloads and resume in ``CurlTransport``: a body streamed
/// from a file, a response streamed to a file, `Range` resume, progress.
final class CurlStreamingTests: XCTestCase {
    private var server: TestServer!
    private var transport: CurlTransport!
    private var directory: URL!

    override func setUpWithError() throws {
        server = try TestServer()
        transport = try CurlTransport()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ek-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        server.route("/ranged") { request in Self.ranged(request, total: 300_000) }
    }

    override func tearDown() {
        transport = nil
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// Serves `total` pattern bytes, honouring `Range: bytes=N-` with a 206.
    private static func ranged(_ request: TestRequest, total: Int) -> TestResponse {
        let bytes = TestServer.patternBytes(count: total)
        guard let range = request.header("Range"), range.hasPrefix("bytes="),
            let start = Int(range.dropFirst(6).prefix { $0 != "-" }), start < total
        else { return .response(status: 200, headers: [], body: bytes) }
        return .response(
            status: 206, headers: [("Content-Range", "bytes \(start)-\(total - 1)/\(total)")], body: bytes[start...])
    }

    private func run(
        _ urlRequest: URLRequest, body: CurlRequestBody? = nil, to destination: CurlResponseBody.Destination = .memory,
        progress: (@Sendable (CurlProgress) -> Void)? = nil
    ) throws -> Result<TransportResponse, TransportError> {
        let done = expectation(description: "completion")
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        _ = transport.execute(
            TransportRequest(urlRequest: urlRequest, deadline: 20, maximumResponseSize: 1 << 20), body: body,
            destination: destination, progress: progress
        ) { result in
            box.set(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(box.value)
    }

    func testThatAFileBodyIsStreamedWithItsLengthAndResentOn307() throws {
        server.route("/upload") { request in
            .json(["count": request.body.count, "same": request.body == TestServer.patternBytes(count: 3_000_000)])
        }
        server.route("/moved") { _ in .redirect(to: "/upload", status: 307) }
        let file = directory.appendingPathComponent("body.bin")
        try TestServer.patternBytes(count: 3_000_000).write(to: file)
        for path in ["/upload", "/moved"] {
            let sent = Locked<Int64>(0)
            let result = try run(
                URLRequest(url: server.url(path)).with(method: "POST"), body: .file(file, length: 3_000_000),
                progress: { sent.set($0.sent) })
            let answer = try JSONDecoder().decode([String: JSONValue].self, from: result.get().data)
            XCTAssertEqual(answer, ["count": 3_000_000, "same": true], path)
            XCTAssertEqual(sent.value, 3_000_000, path)
        }
    }

    func testThatA2xxBodyStreamsToAFileAndOtherBodiesStayInMemory() throws {
        let file = directory.appendingPathComponent("download.bin")
        let received = Locked<CurlProgress?>(nil)
        let result = try run(
            URLRequest(url: server.url("/redirect/1")).with(method: "GET"), to: .file(file, resumeFrom: nil))
        XCTAssertEqual(try result.get().response.statusCode, 200)
        XCTAssertTrue(try Data(contentsOf: file).starts(with: Data(#"{"args""#.utf8)), "the 302 body is not written")
        // Larger than the in-memory cap (1 MiB), with and without a Content-Length.
        for path in ["/bytes/5000000?chunk=70000", "/bytes/5000000"] {
            let big = try run(URLRequest(url: server.url(path)), to: .file(file, resumeFrom: nil)) { received.set($0) }
            XCTAssertEqual(try big.get().data.count, 0, path)
            XCTAssertEqual(try Data(contentsOf: file), TestServer.patternBytes(count: 5_000_000), path)
            XCTAssertEqual(received.value?.received, 5_000_000, path)
        }
        let missing = directory.appendingPathComponent("missing.bin")
        let notFound = try run(URLRequest(url: server.url("/status/404")), to: .file(missing, resumeFrom: nil))
        XCTAssertEqual(try notFound.get().response.statusCode, 404)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "no file for a 404")
    }

    func testThatADownloadResumesWithRangeOrStartsOverWhenTheServerIgnoresIt() throws {
        let file = directory.appendingPathComponent("partial.bin")
        let full = TestServer.patternBytes(count: 300_000)
        try full.prefix(120_000).write(to: file)
        XCTAssertEqual(
            try run(URLRequest(url: server.url("/ranged")), to: .file(file, resumeFrom: 120_000)).get().response
                .statusCode, 206)
        XCTAssertEqual(try Data(contentsOf: file), full)
        // The server ignores the range: the file is replaced, not appended to.
        try full.prefix(120_000).write(to: file)
        server.route("/ranged") { _ in .response(status: 200, headers: [], body: full) }
        XCTAssertEqual(
            try run(URLRequest(url: server.url("/ranged")), to: .file(file, resumeFrom: 120_000)).get().response
                .statusCode, 200)
        XCTAssertEqual(try Data(contentsOf: file), full)
        // A 206 for another offset would corrupt the file.
        server.route("/ranged") { request in
            Self.ranged(TestRequest(method: "GET", target: "/", headers: [("Range", "bytes=7-")]), total: 300_000)
        }
        let wrong = try run(URLRequest(url: server.url("/ranged")), to: .file(file, resumeFrom: 120_000))
        XCTAssertEqual(wrong.failureReason, .badResponse)
    }
}
#endif
