@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The failure half of the contract: deadlines, broken servers, limits, cancellation.
extension TransportConformanceTests {
    func testThatAStalledServerTimesOutAtTheTotalDeadline() throws {
        try forEachTransport {
            server.route("/item") { _ in .stall }
            XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.5))?.transportReason, .timedOut)
            server.route("/item") { _ in .stallAfterHeaders(status: 200, headers: [], contentLength: 100) }
            XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.5))?.transportReason, .timedOut)
        }
    }

    func testThatADripFeedingServerStillEndsAtTheTotalDeadline() throws {
        try forEachTransport {
            server.route("/item") { _ in
                .chunked(
                    status: 200, headers: [], chunks: Array(repeating: Data("x".utf8), count: 50),
                    delayBetweenChunks: 0.1)
            }
            XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.8))?.transportReason, .timedOut)
        }
    }

    func testThatARefusedConnectionIsCannotConnect() throws {
        try forEachTransport {
            let port = server.port
            server.stop()
            let result = execute(URLRequest(url: URL(string: "http://127.0.0.1:\(port)/item")!))
            XCTAssertEqual(result?.failureReason, .cannotConnect)
        }
    }

    func testThatBrokenRepliesAreConnectionLostOrBadResponse() throws {
        try forEachTransport {
            for path in ["/fault/close-mid-body", "/fault/close", "/fault/garbage", "/fault/invalid-status"] {
                let reason = execute(URLRequest(url: server.url(path)))?.failureReason
                XCTAssertTrue(
                    reason == .connectionLost || reason == .badResponse, "\(path): \(String(describing: reason))")
            }
        }
    }

    func testThatTLSToAPlainHTTPServerIsATLSError() throws {
        try forEachTransport {
            let result = execute(URLRequest(url: URL(string: "https://127.0.0.1:\(server.port)/echo")!))
            XCTAssertEqual(result?.failureReason, .tls)
        }
    }

    func testThatAnUnsupportedSchemeFailsWithoutTouchingTheNetwork() throws {
        try forEachTransport {
            for url in ["ftp://127.0.0.1:\(server.port)/x", "file:///etc/passwd", "gopher://127.0.0.1:\(server.port)/"]
            {
                XCTAssertEqual(execute(URLRequest(url: URL(string: url)!))?.failureReason, .unsupportedURL, url)
            }
            XCTAssertEqual(server.connectionCount, 0)
        }
    }

    func testThatABodyOverTheCapIsResponseTooLarge() throws {
        try forEachTransport {
            let declared = execute(URLRequest(url: server.url("/bytes/5000")), limit: 1000)
            XCTAssertEqual(declared?.failureReason, .responseTooLarge(limit: 1000))
            let chunked = execute(URLRequest(url: server.url("/bytes/5000?chunk=400")), limit: 1000)
            XCTAssertEqual(chunked?.failureReason, .responseTooLarge(limit: 1000))
            let exact = execute(URLRequest(url: server.url("/bytes/1000?chunk=100")), limit: 1000)
            XCTAssertEqual(try exact?.get().data, TestServer.patternBytes(count: 1000))
        }
    }

    func testThatCancellingOneTransferCompletesItOnceAndLeavesTheOthers() throws {
        try forEachTransport {
            let cancelled = expectation(description: "cancelled")
            cancelled.assertForOverFulfill = true
            let reasons = Locked<[TransportError.Reason]>([])
            let stalled = transport.execute(
                TransportRequest(
                    urlRequest: URLRequest(url: server.url("/fault/stall")), timeouts: Timeouts(total: 10),
                    maximumResponseSize: 1000)
            ) { result in
                if case .failure(let error) = result { reasons.value.append(error.reason) }
                cancelled.fulfill()
            }
            let others = expectation(description: "others")
            others.expectedFulfillmentCount = 3
            let successes = Counter()
            for _ in 0..<3 {
                _ = transport.execute(
                    TransportRequest(
                        urlRequest: URLRequest(url: server.url("/delay/300")), timeouts: Timeouts(total: 10),
                        maximumResponseSize: 1 << 20)
                ) { result in
                    if (try? result.get().response.statusCode) == 200 { successes.increment() }
                    others.fulfill()
                }
            }
            XCTAssertTrue(server.waitForRequestCount(atLeast: 4, timeout: 10))
            stalled.cancel()
            stalled.cancel()
            wait(for: [cancelled, others], timeout: 15)
            XCTAssertEqual(reasons.value, [.cancelled])
            XCTAssertEqual(successes.total, 3)
            XCTAssertTrue(
                server.waitForOpenConnectionCount(atMost: 3, timeout: 10), "the stalled connection was closed")
        }
    }

    func testThatACancelledClientRequestIsCancelled() throws {
        try forEachTransport {
            server.route("/item") { _ in .stall }
            let done = expectation(description: "done")
            let box = ResultBox<Item>()
            let handle = client.send(GetItem()) { result in
                box.append(result)
                done.fulfill()
            }
            XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 10))
            handle.cancel()
            wait(for: [done], timeout: 10)
            XCTAssertEqual(box.results.first?.transportReason, .cancelled)
        }
    }
}

extension Result where Failure == TransportError {
    var failureReason: TransportError.Reason? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
}
