import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each fault route must make URLSession fail (not hang, not succeed).
final class FaultTests: XCTestCase {
    private func failingFetch(_ path: String, on server: TestServer, timeout: TimeInterval = 1) -> FetchResult {
        var request = URLRequest(url: server.url(path))
        request.timeoutInterval = timeout
        return fetch(request, session: makeSession(timeout: timeout), timeout: timeout + 5)
    }

    private func assertURLError(
        _ result: FetchResult, _ path: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNotNil(result.error, "\(path) should fail; got status \(result.status)", file: file, line: line)
        if let error = result.error {
            XCTAssertTrue(error is URLError, "\(path): \(error)", file: file, line: line)
        }
    }

    func testStallTimesOut() throws {
        let server = try TestServer()
        defer { server.stop() }
        var result = FetchResult()
        // FoundationNetworking truncates timeouts to whole seconds (0.5 s would fire at once).
        let seconds = elapsed { result = failingFetch("/fault/stall", on: server, timeout: 1) }
        assertURLError(result, "/fault/stall")
        XCTAssertEqual((result.error as? URLError)?.code, .timedOut)
        XCTAssertGreaterThan(seconds, 0.9, "the server must really stall")
        XCTAssertLessThan(seconds, 15, "bounded: the client gave up")
        // The client gave up and closed; the stalled server side notices and closes too.
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 3))
    }

    func testStallAfterHeadersTimesOut() throws {
        let server = try TestServer()
        defer { server.stop() }
        let result = failingFetch("/fault/stall-after-headers", on: server, timeout: 1)
        assertURLError(result, "/fault/stall-after-headers")
        XCTAssertEqual((result.error as? URLError)?.code, .timedOut)

        let client = try RawClient(port: server.port, receiveTimeout: 0.3)
        client.send("GET /fault/stall-after-headers?length=50 HTTP/1.1\r\n\r\n")
        let head = String(decoding: client.readToEnd(), as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
        XCTAssertTrue(head.contains("Content-Length: 50\r\n"), head)
    }

    func testCloseMidBodyFails() throws {
        let server = try TestServer()
        defer { server.stop() }
        assertURLError(failingFetch("/fault/close-mid-body", on: server), "/fault/close-mid-body")

        let client = try RawClient(port: server.port)
        client.send("GET /fault/close-mid-body HTTP/1.1\r\n\r\n")
        let bytes = client.readToEnd()
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Length: 1000\r\n"))
        XCTAssertEqual(Array(bytes.suffix(100)), Array(TestServer.patternBytes(count: 100)))
    }

    func testGarbageFails() throws {
        let server = try TestServer()
        defer { server.stop() }
        assertURLError(failingFetch("/fault/garbage", on: server), "/fault/garbage")
    }

    func testCloseWithoutResponseFails() throws {
        let server = try TestServer()
        defer { server.stop() }
        assertURLError(failingFetch("/fault/close", on: server), "/fault/close")
        let client = try RawClient(port: server.port)
        client.send("GET /fault/close HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readToEnd(), [])
    }

    func testResetAbortsTheConnectionAfterItsBytes() throws {
        let server = try TestServer()
        defer { server.stop() }
        assertURLError(failingFetch("/fault/reset", on: server), "/fault/reset")
        server.route("/half") { _ in .reset(afterSending: Data("HTTP/1.1 200 OK\r\nContent-Le".utf8)) }
        let half = try RawClient(port: server.port).exchange("GET /half HTTP/1.1\r\n\r\n")
        XCTAssertEqual(String(decoding: half.bytes, as: UTF8.self), "HTTP/1.1 200 OK\r\nContent-Le")
        XCTAssertEqual(half.error, ECONNRESET, "a reset, not an orderly close")

        let nothing = try RawClient(port: server.port).exchange("GET /fault/reset HTTP/1.1\r\n\r\n")
        XCTAssertEqual(nothing.bytes, [])
        XCTAssertEqual(nothing.error, ECONNRESET)
        // Next to it, `.close` ends the stream in order.
        let closed = try RawClient(port: server.port).exchange("GET /fault/close HTTP/1.1\r\n\r\n")
        XCTAssertEqual(closed.bytes, [])
        XCTAssertNil(closed.error)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 5))
    }

    func testInvalidStatusLineFails() throws {
        let server = try TestServer()
        defer { server.stop() }
        assertURLError(failingFetch("/fault/invalid-status", on: server), "/fault/invalid-status")
    }

    func testDelayedFaultDoesNotBlockOtherConnections() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.route("/slow") { _ in .delayed(20, .text("slow")) }
        let slowSession = makeSession()
        let slowDone = DispatchSemaphore(value: 0)
        slowSession.dataTask(with: server.url("/slow")) { _, _, _ in slowDone.signal() }.resume()
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 3))
        let seconds = elapsed {
            for _ in 0..<5 { XCTAssertEqual(fetch(server.url("/echo"), session: makeSession()).status, 200) }
        }
        XCTAssertLessThan(seconds, 15, "fast requests must not wait for the 20 s delayed one")
        slowSession.invalidateAndCancel()
        XCTAssertEqual(slowDone.wait(timeout: .now() + 8), .success)
    }
}

extension RawClient {
    /// Sends `request`, then reads until the stream ends or fails.
    func exchange(_ request: String) -> (bytes: [UInt8], error: Int32?) {
        send(request)
        return readUntilEndOrError()
    }
}
