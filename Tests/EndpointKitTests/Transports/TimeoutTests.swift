import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The three limits of ``Timeouts`` on every transport: a slow transfer that keeps moving is
/// never cut, a stall is, and the error names the limit that ran out.
///
/// No test asserts how fast a limit fires (machines here are shared): which limit fired tells a
/// stall from a deadline, and each wait is bounded far above the limit under test.
final class TimeoutTests: TransportTestCase {
    /// `/fault/drip`: `chunks` lines of text `delay` ms apart, then the end of the body, or a stall.
    struct Drip: APIRequest {
        typealias Response = String
        var chunks: Int
        var delay: Int
        var stalls = false
        var idleTimeout: TimeInterval?
        var totalTimeout: TimeInterval?
        var path: RequestPath { "/fault/drip" }
        var parameters: RequestParameters {
            var query: QueryItems = ["chunks": QueryValue(chunks), "delay": QueryValue(delay)]
            if stalls { query.append("stall", "1") }
            return .query(query)
        }
    }

    func testThatATransferThatKeepsMovingOutlivesItsIdleTimeout() throws {
        try forEachTransport {
            // About 4.5 s of body, a line every 250 ms, against a 1 s idle limit and no deadline.
            let result = sendAndWait(Drip(chunks: 18, delay: 250, idleTimeout: 1, totalTimeout: 0), timeout: 30)
            let body = try XCTUnwrap(result?.value, "\(String(describing: result))")
            XCTAssertEqual(body.split(separator: "\n").count, 18)
        }
    }

    func testThatAStallMidBodyEndsWithTheIdleLimit() throws {
        try forEachTransport {
            let started = Date()
            let result = sendAndWait(
                Drip(chunks: 3, delay: 100, stalls: true, idleTimeout: 1, totalTimeout: 60), timeout: 30)
            let error = try XCTUnwrap(transportError(result))
            XCTAssertEqual(error.reason, .timedOut)
            XCTAssertEqual(error.timeoutLimit, .idle, error.message)
            XCTAssertTrue(error.reason == .timedOut)
            XCTAssertTrue(error.message.contains("idle"), error.message)
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.9, "the limit is never cut short")
        }
    }

    func testThatAServerThatNeverAnswersRunsIntoTheIdleLimit() throws {
        try forEachTransport {
            let result = sendAndWait(GetItem(path: "/fault/stall", totalTimeout: 60), client: idleClient(), timeout: 30)
            XCTAssertEqual(transportError(result)?.timeoutLimit, .idle)
        }
    }

    func testThatTheTotalDeadlineEndsATransferThatKeepsMoving() throws {
        try forEachTransport {
            // Bytes every 100 ms for 6 s: the idle limit never fires, the 1.5 s deadline does.
            let result = sendAndWait(Drip(chunks: 60, delay: 100, idleTimeout: 5, totalTimeout: 1.5), timeout: 30)
            let error = try XCTUnwrap(transportError(result))
            XCTAssertEqual(error.reason, .timedOut)
            XCTAssertEqual(error.timeoutLimit, .total, error.message)
            XCTAssertTrue(error.message.contains("total"), error.message)
        }
    }

    func testThatAConnectTimeoutFiresAgainstAListenerThatNeverCompletesTheHandshake() throws {
        try forEachTransport {
            let listener = try UnresponsiveListener()
            defer { listener.stop() }
            let client = makeClient {
                $0.baseURL = listener.baseURL
                $0.timeouts = Timeouts(connect: 1, idle: 20, total: nil)
            }
            let result = sendAndWait(GetItem(), client: client, timeout: 30)
            let error = try XCTUnwrap(transportError(result))
            XCTAssertEqual(error.reason, .timedOut)
            XCTAssertEqual(error.timeoutLimit, .connect, error.message)
            XCTAssertTrue(error.message.contains("connect"), error.message)
        }
    }

    /// A client whose only short limit is the idle one.
    private func idleClient() -> APIClient {
        makeClient { $0.timeouts = Timeouts(connect: 20, idle: 1, total: nil) }
    }

    private func transportError<Value>(_ result: APIResult<Value>?) -> TransportError? {
        guard case .transportError(let error)? = result else {
            XCTFail("expected a transport error, got \(String(describing: result))")
            return nil
        }
        return error
    }
}
