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
        _ urlRequest: URLRequest, bodyFile: URL? = nil, download: DownloadTarget? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) throws -> Result<TransportResponse, TransportError> {
        let done = expectation(description: "completion")
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        let request = TransportRequest(
            urlRequest: urlRequest, deadline: 20, maximumResponseSize: 1 << 20, bodyFile: bodyFile, download: download,
            onProgress: progress)
        _ = transport.execute(request) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return try XCTUnwrap(box.value)
    }

    /// A GET resuming at `offset`, as the client sends it.
    private func resuming(_ path: String, at offset: Int64) -> URLRequest {
        var request = URLRequest(url: server.url(path))
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        return request
    }

    func testThatAFileBodyIsStreamedWithItsLengthAndResentOn307() throws {
        server.route("/upload") { request in
            .json(["count": request.body.count, "same": request.body == TestServer.patternBytes(count: 3_000_000)])
        }
        server.route("/moved") { _ in .redirect(to: "/upload", status: 307) }
        let file = directory.appendingPathComponent("body.bin")
        try TestServer.patternBytes(count: 3_000_000).write(to: file)
        for path in ["/upload", "/moved"] {
            let sent = Locked<TransferProgress?>(nil)
            let result = try run(
                URLRequest(url: server.url(path)).with(method: "POST"), bodyFile: file, progress: { sent.value = $0 })
            let answer = try JSONDecoder().decode([String: JSONValue].self, from: result.get().data)
            XCTAssertEqual(answer, ["count": 3_000_000, "same": true], path)
            XCTAssertEqual(sent.value?.bytesSent, 3_000_000, path)
            XCTAssertEqual(sent.value?.totalBytesToSend, 3_000_000, path)
        }
    }

    func testThatA2xxBodyStreamsToAFileAndOtherBodiesStayInMemory() throws {
        let file = directory.appendingPathComponent("download.bin")
        let received = Locked<TransferProgress?>(nil)
        let result = try run(URLRequest(url: server.url("/redirect/1")), download: DownloadTarget(fileURL: file))
        XCTAssertEqual(try result.get().response.statusCode, 200)
        XCTAssertEqual(try result.get().fileURL, file)
        XCTAssertTrue(try Data(contentsOf: file).starts(with: Data(#"{"args""#.utf8)), "the 302 body is not written")
        // Larger than the in-memory cap (1 MiB), with and without a Content-Length.
        for path in ["/bytes/5000000?chunk=70000", "/bytes/5000000"] {
            let big = try run(URLRequest(url: server.url(path)), download: DownloadTarget(fileURL: file)) {
                received.value = $0
            }
            XCTAssertEqual(try big.get().data.count, 0, path)
            XCTAssertEqual(try Data(contentsOf: file), TestServer.patternBytes(count: 5_000_000), path)
            XCTAssertEqual(received.value?.bytesReceived, 5_000_000, path)
        }
        let missing = directory.appendingPathComponent("missing.bin")
        let notFound = try run(URLRequest(url: server.url("/status/404")), download: DownloadTarget(fileURL: missing))
        XCTAssertEqual(try notFound.get().response.statusCode, 404)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "no file for a 404")
    }

    func testThatADownloadResumesWithRangeOrStartsOverWhenTheServerIgnoresIt() throws {
        let file = directory.appendingPathComponent("partial.bin")
        let full = TestServer.patternBytes(count: 300_000)
        try full.prefix(120_000).write(to: file)
        XCTAssertEqual(
            try run(resuming("/ranged", at: 120_000), download: DownloadTarget(fileURL: file, resumeOffset: 120_000))
                .get().response
                .statusCode, 206)
        XCTAssertEqual(try Data(contentsOf: file), full)
        // The server ignores the range: the file is replaced, not appended to.
        try full.prefix(120_000).write(to: file)
        server.route("/ranged") { _ in .response(status: 200, headers: [], body: full) }
        XCTAssertEqual(
            try run(resuming("/ranged", at: 120_000), download: DownloadTarget(fileURL: file, resumeOffset: 120_000))
                .get().response
                .statusCode, 200)
        XCTAssertEqual(try Data(contentsOf: file), full)
        // A 206 for another offset would corrupt the file.
        server.route("/ranged") { request in
            Self.ranged(TestRequest(method: "GET", target: "/", headers: [("Range", "bytes=7-")]), total: 300_000)
        }
        let wrong = try run(
            resuming("/ranged", at: 120_000), download: DownloadTarget(fileURL: file, resumeOffset: 120_000))
        XCTAssertEqual(wrong.failureReason, .badResponse)
    }
}
#endif
