@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transfer half of the contract: a body streamed from a file, a response written to a file,
/// `Range` resume, progress.
extension TransportConformanceTests {
    /// A fresh folder, removed when the test ends.
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ek-transfers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
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

    /// A GET resuming `file` at `offset`, as the client sends it.
    private func resume(
        _ path: String, into file: URL, at offset: Int64
    ) throws -> Result<TransportResponse, TransportError> {
        var request = URLRequest(url: server.url(path))
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        return try XCTUnwrap(execute(request, download: DownloadTarget(fileURL: file, resumeOffset: offset)))
    }

    func testThatAFileBodyIsStreamedWithItsLengthAndResentOn307() throws {
        try forEachTransport {
            let expected = TestServer.patternBytes(count: 3_000_000)
            server.route("/upload") { request in
                .json([
                    "count": request.body.count, "same": request.body == expected,
                    "length": request.header("Content-Length") ?? "none",
                ])
            }
            server.route("/moved") { _ in .redirect(to: "/upload", status: 307) }
            let file = try temporaryDirectory().appendingPathComponent("body.bin")
            try expected.write(to: file)
            for path in ["/upload", "/moved"] {
                let sent = Locked<TransferProgress?>(nil)
                let result = try XCTUnwrap(
                    execute(URLRequest(url: server.url(path)).with(method: "POST"), bodyFile: file) { sent.value = $0 })
                let answer = try JSONDecoder().decode([String: JSONValue].self, from: result.get().data)
                XCTAssertEqual(answer, ["count": 3_000_000, "same": true, "length": "3000000"], path)
                XCTAssertEqual(sent.value?.bytesSent, 3_000_000, path)
            }
        }
    }

    func testThatA2xxBodyGoesToTheFileAndOtherBodiesStayInMemory() throws {
        try forEachTransport {
            let directory = try temporaryDirectory()
            let file = directory.appendingPathComponent("download.bin")
            let redirected = try XCTUnwrap(
                execute(URLRequest(url: server.url("/redirect/1")), download: DownloadTarget(fileURL: file)))
            XCTAssertEqual(try redirected.get().fileURL, file)
            XCTAssertTrue(try Data(contentsOf: file).starts(with: Data(#"{"args""#.utf8)), "only the final body")
            // Larger than the in-memory cap, with and without a Content-Length.
            for path in ["/bytes/5000000?chunk=70000", "/bytes/5000000"] {
                let received = Locked<TransferProgress?>(nil)
                let big = try XCTUnwrap(
                    execute(URLRequest(url: server.url(path)), limit: 1 << 20, download: DownloadTarget(fileURL: file))
                    {
                        received.value = $0
                    })
                XCTAssertEqual(try big.get().data.count, 0, path)
                XCTAssertEqual(try Data(contentsOf: file), TestServer.patternBytes(count: 5_000_000), path)
                XCTAssertEqual(received.value?.bytesReceived, 5_000_000, path)
            }
            let missing = directory.appendingPathComponent("missing.bin")
            let notFound = try XCTUnwrap(
                execute(URLRequest(url: server.url("/status/404")), download: DownloadTarget(fileURL: missing)))
            XCTAssertEqual(try notFound.get().response.statusCode, 404)
            XCTAssertNil(try notFound.get().fileURL)
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path), "no file for a 404")
        }
    }

    func testThatADownloadResumesWithRangeOrStartsOverWhenTheServerIgnoresIt() throws {
        try forEachTransport {
            let file = try temporaryDirectory().appendingPathComponent("partial.bin")
            let full = TestServer.patternBytes(count: 300_000)
            server.route("/ranged") { request in Self.ranged(request, total: 300_000) }
            try full.prefix(120_000).write(to: file)
            XCTAssertEqual(try resume("/ranged", into: file, at: 120_000).get().response.statusCode, 206)
            XCTAssertEqual(try Data(contentsOf: file), full)
            // The server ignores the range: the file is replaced, not appended to.
            try full.prefix(120_000).write(to: file)
            server.route("/ranged") { _ in .response(status: 200, headers: [], body: full) }
            XCTAssertEqual(try resume("/ranged", into: file, at: 120_000).get().response.statusCode, 200)
            XCTAssertEqual(try Data(contentsOf: file), full)
            // A 206 at another offset would corrupt the file.
            server.route("/ranged") { _ in
                Self.ranged(TestRequest(method: "GET", target: "/", headers: [("Range", "bytes=7-")]), total: 300_000)
            }
            XCTAssertEqual(try resume("/ranged", into: file, at: 120_000).failureReason, .badResponse)
        }
    }
}
