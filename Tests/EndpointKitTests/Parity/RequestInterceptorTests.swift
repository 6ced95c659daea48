import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's own interceptors (Alamofire's `session.request(_:interceptor:)`): they adapt after
/// the client's and decide retries after them, before the retrier.
final class RequestInterceptorTests: LoopbackTestCase {
    /// Appends its name to `X-Trail` and records the retry questions it was asked.
    struct Trail: RequestInterceptor {
        let name: String
        let asked: Locked<[String]>
        var retriesOn503 = false

        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            let trail = request.value(forHTTPHeaderField: "X-Trail").map { $0 + "," } ?? ""
            request.setValue(trail + name, forHTTPHeaderField: "X-Trail")
            return request
        }

        func retry(
            _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
        ) async
            -> RetryDecision
        {
            asked.withLock { $0.append(name) }
            return retriesOn503 && failure.statusCode == 503 && context.attempt == 1 ? .retry(after: 0) : .noOpinion
        }
    }

    struct Signed: APIRequest {
        typealias Response = Item
        let interceptors: [any RequestInterceptor]
        var path: RequestPath { "/item" }
    }

    func testThatARequestsInterceptorsAdaptAfterTheClientsAndRetryBeforeTheRetrier() async throws {
        // GIVEN a server that answers 503 once, then echoes the trail of adapters it saw
        let trails = Locked<[String]>([])
        let calls = Locked(0)
        server.route("/item") { request in
            trails.withLock { $0.append(request.header("X-Trail") ?? "-") }
            let call = calls.withLock { value -> Int in
                value += 1
                return value
            }
            return call == 1 ? .status(503) : .json(["id": 1, "name": request.header("X-Trail") ?? "-"])
        }
        let asked = Locked<[String]>([])
        let client = makeClient {
            $0.interceptors = [Trail(name: "client", asked: asked)]
            $0.retrier = RetryPolicy.none
        }

        // WHEN a request with its own interceptor (which retries a 503) is sent
        let value = try await client.value(
            for: Signed(interceptors: [Trail(name: "request", asked: asked, retriesOn503: true)]))

        // THEN every attempt was adapted by the client's, then the request's; the client's
        // interceptor was asked first about the 503, and the request's retried it
        XCTAssertEqual(value.name, "client,request")
        XCTAssertEqual(trails.withLock { $0 }, ["client,request", "client,request"])
        XCTAssertEqual(asked.withLock { $0 }, ["client", "request"])
    }

    func testThatARequestsInterceptorRunsOnAClientWithNone() async throws {
        server.route("/item") { request in .json(["id": 1, "name": request.header("X-Trail") ?? "-"]) }
        let asked = Locked<[String]>([])
        let value = try await client.value(for: Signed(interceptors: [Trail(name: "only", asked: asked)]))
        XCTAssertEqual(value.name, "only")
    }

    func testThatARequestsThrowingInterceptorFailsItAsNotBuiltAndNothingIsSent() async {
        struct Refused: Error {}
        server.route("/item") { _ in .json(["id": 1, "name": "sent"]) }
        let result = await client.send(Signed(interceptors: [Adapter { _, _ in throw Refused() }]))
        XCTAssertEqual(result.transportReason, .requestBuildFailed)
        XCTAssertEqual(server.requestCount, 0)
    }
}
