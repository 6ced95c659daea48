import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `APIFailure`'s accessors over loopback: what `result.failure` and a retrier's `failedWith`
/// hold for a server's "no" and for no usable answer.
final class APIFailureTests: LoopbackTestCase {
    func testThatAServerFailureIsReachedWithoutACast() async {
        server.route("/item") { _ in .json(["message": "Too many"], status: 429) }
        let result = await client.send(GetItem())
        let failure = result.failure
        XCTAssertEqual(failure?.serverFailure?.statusCode, 429)
        XCTAssertEqual(failure?.serverFailure?.kind, .httpStatus)
        XCTAssertNil(failure?.transportError)
        XCTAssertEqual(failure?.statusCode, 429)
        XCTAssertEqual(failure?.message, "Too many")
    }

    func testThatATransportErrorIsReachedWithoutACast() async {
        server.route("/item") { _ in .json(["id": "seven", "name": "a"]) }
        let undecodable = await client.send(GetItem())
        XCTAssertEqual(undecodable.failure?.transportError?.reason, .decodingFailed)
        XCTAssertNil(undecodable.failure?.serverFailure)
        XCTAssertEqual(undecodable.failure?.statusCode, 200, "the response came, its body did not decode")
        XCTAssertEqual(undecodable.failure?.message, undecodable.failure?.transportError?.message)

        server.stop()
        let refused = await client.send(GetItem())
        XCTAssertEqual(refused.failure?.transportError?.reason, .cannotConnect)
        XCTAssertNil(refused.failure?.serverFailure)
        XCTAssertNil(refused.failure?.statusCode)
        XCTAssertFalse(refused.failure?.message?.isEmpty ?? true)
    }

    func testThatASuccessHasNoFailure() async {
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let result = await client.send(GetItem())
        XCTAssertNil(result.failure)
    }

    func testThatARetrierReadsEachFailedAttemptThroughTheAccessors() async {
        let attempts = Counter()
        server.route("/item") { _ in
            attempts.increment()
            return attempts.total == 1 ? .close : .json(["message": "busy"], status: 503)
        }
        let seen = Locked<[String]>([])
        let client = makeClient { $0.interceptors = [FailureRecorder(seen: seen)] }
        _ = await client.send(GetItem())
        XCTAssertEqual(seen.value, ["transport connectionLost", "server 503 busy"])
    }
}

/// Records each failed attempt as read through `APIFailure`'s accessors, and retries once.
private struct FailureRecorder: RequestInterceptor {
    let seen: Locked<[String]>

    func retry(_ request: URLRequest, failedWith failure: APIFailure, context: RequestContext) async -> RetryDecision {
        if let error = failure.transportError {
            seen.withLock { $0.append("transport \(error.reason)") }
        } else if let refusal = failure.serverFailure {
            seen.withLock { $0.append("server \(refusal.statusCode) \(refusal.message ?? "-")") }
        }
        return context.attempt == 1 ? .retry(after: 0) : .stop
    }
}
