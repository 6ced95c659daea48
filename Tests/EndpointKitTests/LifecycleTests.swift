import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Tags and cancellation, the registry, retries with backoff.
final class LifecycleTests: LoopbackTestCase {
    struct Tagged: APIRequest {
        typealias Response = Item
        var tag: String?
        var path: RequestPath = "/item"
    }

    func testThatCancellingATagCancelsOnlyThoseRequestsExactlyOnce() {
        server.route("/stall") { _ in .stall }
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let counter = Counter()
        let cancelled = expectation(description: "tagged")
        cancelled.expectedFulfillmentCount = 50
        for _ in 0..<50 {
            client.send(Tagged(tag: "screen", path: "/stall")) { result in
                counter.increment("screen")
                XCTAssertEqual(result.transportReason, .cancelled)
                cancelled.fulfill()
            }
        }
        // URLSession opens a few connections per host; the rest wait in its queue, still in flight.
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        XCTAssertEqual(client.inFlightRequests.filter { $0.tag == "screen" }.count, 50)
        client.cancelRequests(tagged: "screen")
        client.cancelRequests(tagged: "screen")
        wait(for: [cancelled], timeout: 5)
        XCTAssertEqual(sendAndWait(Tagged(tag: "other"))?.value, Item(id: 1, name: "a"))
        XCTAssertEqual(counter.value("screen"), 50)
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatCancelAllCancelsEverything() {
        server.route("/stall") { _ in .stall }
        let done = expectation(description: "all")
        done.expectedFulfillmentCount = 10
        for index in 0..<10 {
            client.send(Tagged(tag: index.isMultiple(of: 2) ? "a" : nil, path: "/stall")) { result in
                XCTAssertEqual(result.transportReason, .cancelled)
                done.fulfill()
            }
        }
        client.cancelAllRequests()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(client.inFlightRequests.count, 0)
    }

    func testThatFinishedRequestsLeaveTheRegistry() async {
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let client: APIClient = client
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<500 { group.addTask { _ = await client.send(Tagged()) } }
        }
        XCTAssertEqual(client.inFlightRequests.count, 0)
    }

    /// `/item` answers 503 twice, then the item "recovered".
    private func routeRecoveringAfterTwoFailures() {
        let failures = Counter()
        server.route("/item") { _ in
            if failures.value() < 2 {
                failures.increment()
                return .status(503)
            }
            return .json(["id": 7, "name": "recovered"])
        }
    }

    func testThatRetriesRunUntilTheServerRecoversAndEachAttemptIsVisible() async {
        routeRecoveringAfterTwoFailures()
        let recorder = AttemptRecorder()
        let client = makeClient {
            $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: 0.01)
            $0.plugins = [recorder]
        }
        let result = await client.send(GetItem())
        XCTAssertEqual(result.value?.name, "recovered")
        XCTAssertEqual(
            recorder.events,
            ["send 1", "receive 1: 503", "send 2", "receive 2: 503", "send 3", "receive 3: 200", "complete"])
        XCTAssertEqual(server.requestCount, 3)
    }

    /// A `RetryPolicy` decides where the response was processed: for an `async` send every attempt
    /// runs on the awaiting task (its task-local values are visible to the plugins), with and
    /// without a wait before the retry.
    func testThatEveryAttemptOfAnAwaitedSendRunsOnTheAwaitingTask() async {
        for baseDelay in [0.0, 0.01] {
            routeRecoveringAfterTwoFailures()
            let witness = TaskWitness()
            let client = makeClient {
                $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: baseDelay, jitter: 0)
                $0.plugins = [witness]
            }
            let result = await TaskWitness.$marker.withValue("caller") { await client.send(GetItem()) }
            XCTAssertEqual(result.value?.name, "recovered", "base delay \(baseDelay)")
            XCTAssertEqual(witness.markers, ["caller", "caller", "caller"], "base delay \(baseDelay)")
        }
    }

    func testThatRetriesStopAtTheLimitWithTheLastFailure() async {
        server.route("/item") { _ in .status(500) }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 2, baseDelay: 0.01) }
        let result = await client.send(GetItem())
        XCTAssertEqual(result.serverFailure?.statusCode, 500)
        XCTAssertEqual(server.requestCount, 3)
    }

    /// A retrier made from a closure, for the decision-order tests.
    struct DecidingInterceptor: RequestInterceptor {
        let decide: @Sendable (RequestContext) -> RetryDecision

        func retry(
            _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
        ) async -> RetryDecision {
            decide(context)
        }
    }

    func testThatTheRetryDecisionOfAnInterceptorComesBeforeThePolicy() async {
        server.route("/item") { _ in .status(503) }
        let policy = RetryPolicy(maxRetries: 3, baseDelay: 0.01)
        // `.stop` ends the retries the policy would make.
        let stopping = makeClient {
            $0.interceptors = [DecidingInterceptor { _ in .stop }]
            $0.retrier = policy
        }
        _ = await stopping.send(GetItem())
        XCTAssertEqual(server.requestCount, 1, "stop wins over the policy")
        // No opinion leaves the decision to the policy (1 + 3 retries).
        let silent = makeClient {
            $0.interceptors = [DecidingInterceptor { _ in .noOpinion }]
            $0.retrier = policy
        }
        _ = await silent.send(GetItem())
        XCTAssertEqual(server.requestCount, 1 + 4, "the policy decides")
        // An interceptor's own retries run without any policy, here up to its third attempt.
        let own = makeClient {
            $0.interceptors = [DecidingInterceptor { $0.attempt < 3 ? .retry(after: 0.01) : .noOpinion }]
        }
        let result = await own.send(GetItem())
        XCTAssertEqual(result.serverFailure?.statusCode, 503)
        XCTAssertEqual(server.requestCount, 5 + 3)
    }

    func testThatNonIdempotentMethodsAndOtherStatusesAreNotRetriedByDefault() async {
        server.route("/echo") { _ in .status(503) }
        server.route("/item") { _ in .status(404) }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: 0.01) }
        _ = await client.send(EchoRequest(method: .post))
        _ = await client.send(GetItem())
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatAPOSTIsRetriedOnceRetryableMethodsIncludesIt() async {
        struct PlaceOrder: APIRequest {
            typealias Response = Item
            var method: HTTPMethod { .post }
            var path: RequestPath { "/orders" }
            var parameters: RequestParameters { .json(["name": "order"]) }
        }
        /// A route that answers 503 to its first request and succeeds after; counts requests by body.
        func failOnceThenSucceed() -> Counter {
            let attempts = Counter()
            server.route("/orders") { request in
                attempts.increment(String(decoding: request.body, as: UTF8.self))
                return attempts.total == 1 ? .status(503) : .json(["id": 9, "name": "placed"])
            }
            return attempts
        }
        var policy = RetryPolicy(maxRetries: 2, baseDelay: 0.01)

        let byDefault = failOnceThenSucceed()
        let refused = await makeClient { $0.retrier = policy }.send(PlaceOrder())
        XCTAssertEqual(refused.serverFailure?.statusCode, 503)
        XCTAssertEqual(byDefault.total, 1, "POST is not in the default retryableMethods")

        policy.retryableMethods.insert(.post)
        let retried = failOnceThenSucceed()
        let result = await makeClient { $0.retrier = policy }.send(PlaceOrder())
        XCTAssertEqual(result.value, Item(id: 9, name: "placed"))
        XCTAssertEqual(retried.total, 2)
        XCTAssertEqual(retried.value(#"{"name":"order"}"#), 2, "the retry sends the body again")
    }

    func testThatARequestCanOptOutOfTheClientPolicy() async {
        struct NoRetry: APIRequest {
            typealias Response = Item
            var path: RequestPath { "/item" }
            var retrier: (any RequestRetrier)? { RetryPolicy.none }
        }
        server.route("/item") { _ in .status(503) }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: 0.01) }
        _ = await client.send(NoRetry())
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatTimeoutsAreRetried() async {
        server.route("/item") { _ in .stall }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 1, baseDelay: 0.01) }
        let result = await client.send(GetItem(totalTimeout: 0.3))
        XCTAssertEqual(result.transportReason, .timedOut)
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 2))
    }

    func testThatRetryAfterIsHonouredAndTooLongARetryAfterStopsRetrying() async {
        let calls = Counter()
        server.route("/item") { _ in
            calls.increment()
            return calls.value() == 1
                ? .response(status: 429, headers: [("Retry-After", "0")], body: Data())
                : .json(["id": 1, "name": "after"])
        }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 1, baseDelay: 60, maximumDelay: 60) }
        let started = Date()
        let result = await client.send(GetItem())
        XCTAssertEqual(result.value?.name, "after")
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "Retry-After: 0 replaced the 60 s backoff")

        // Longer than maximumDelay: not retried at all. A short backoff and cap here mean that a
        // retry, if one were wrongly made, would reach the server within the test, not a minute on.
        server.route("/item") { _ in .response(status: 503, headers: [("Retry-After", "3600")], body: Data()) }
        let impatient = makeClient { $0.retrier = RetryPolicy(maxRetries: 1, baseDelay: 0.01, maximumDelay: 1) }
        let before = server.requestCount
        let refused = await impatient.send(GetItem())
        XCTAssertEqual(refused.serverFailure?.statusCode, 503)
        XCTAssertEqual(server.requestCount - before, 1, "Retry-After: 3600 is over maximumDelay: no retry")
    }

    func testThatRetryAfterParsingIgnoresPastAndGarbage() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        XCTAssertEqual(RetryPolicy.parseRetryAfter("120", now: now), 120)
        XCTAssertEqual(RetryPolicy.parseRetryAfter("Mon, 12 Jan 1970 13:46:50 GMT", now: now), 10)
        XCTAssertNil(RetryPolicy.parseRetryAfter("Thu, 01 Jan 1970 00:00:00 GMT", now: now))
        XCTAssertNil(RetryPolicy.parseRetryAfter("soon", now: now))
        XCTAssertNil(RetryPolicy.parseRetryAfter("-5", now: now))
    }

    func testThatBackoffGrowsExponentiallyWithinJitterAndCap() {
        let policy = RetryPolicy(maxRetries: 10, baseDelay: 1, multiplier: 2, maximumDelay: 5, jitter: 0.5)
        XCTAssertEqual((1...5).map(policy.nominalDelay(forRetry:)), [1, 2, 4, 5, 5])
        for retry in 1...5 {
            let delay = policy.delay(forRetry: retry)
            XCTAssertTrue(
                (policy.nominalDelay(forRetry: retry) * 0.5...policy.nominalDelay(forRetry: retry)).contains(delay))
        }
    }

    func testThatCancellingDuringBackoffEndsTheWaitAtOnce() {
        server.route("/item") { _ in .status(503) }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: 30, jitter: 0) }
        let done = expectation(description: "cancelled")
        let handle = client.send(GetItem()) { result in
            XCTAssertEqual(result.transportReason, .cancelled)
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        Thread.sleep(forTimeInterval: 0.2)
        handle.cancel()
        wait(for: [done], timeout: 2)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatPriorityReachesTheTransport() async {
        struct Urgent: APIRequest {
            typealias Response = Echo
            var path: RequestPath { "/echo" }
            var priority: RequestPriority { .high }
        }
        let recording = RecordingTransport(base: URLSessionTransport())
        let client = makeClient { $0.transport = recording }
        _ = await client.send(Urgent())
        XCTAssertEqual(recording.priorities, [.high])
    }

    func testThatTheBodyCanBeTransformedBeforeDecoding() async {
        struct Encrypted: APIRequest {
            typealias Response = Item
            var path: RequestPath { "/secret" }
            func transformBody(_ data: Data, metadata: ResponseMetadata) throws -> Data {
                // The metadata describes the raw response: its headers are there to look at.
                guard metadata.header("content-type")?.hasPrefix("text/plain") == true,
                    let decoded = Data(base64Encoded: data)
                else { throw CocoaError(.coderInvalidValue) }
                return decoded
            }
        }
        server.route("/secret") { _ in .text(Data(#"{"id":5,"name":"plain"}"#.utf8).base64EncodedString()) }
        let result = await client.send(Encrypted())
        XCTAssertEqual(result.value, Item(id: 5, name: "plain"))
        server.route("/secret") { _ in .text("%%% not base64") }
        let broken = await client.send(Encrypted())
        XCTAssertEqual(broken.transportReason, .decodingFailed)
    }
}

/// Records each plugin hook as a line.
final class AttemptRecorder: APIPlugin, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var events: [String] { lock.withLock { lines } }

    func willSend(_ request: URLRequest, context: RequestContext) {
        lock.withLock { lines.append("send \(context.attempt)") }
    }

    func didReceive(
        _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext
    ) {
        let status = (try? outcome.get().response.statusCode).map(String.init) ?? "error"
        lock.withLock { lines.append("receive \(context.attempt): \(status)") }
    }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        lock.withLock { lines.append("complete") }
    }
}

/// A transport that records what it was asked and forwards to another.
final class RecordingTransport: Transport, @unchecked Sendable {
    private let base: any Transport
    private let lock = NSLock()
    private var seen: [TransportRequest] = []

    init(base: any Transport) { self.base = base }

    var priorities: [RequestPriority] { lock.withLock { seen.map(\.priority) } }

    func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        lock.withLock { seen.append(request) }
        return base.execute(request, completion: completion)
    }
}

/// Records, for each attempt sent, the task-local marker of the task the attempt runs on.
final class TaskWitness: APIPlugin, @unchecked Sendable {
    @TaskLocal static var marker: String?

    private let lock = NSLock()
    private var seen: [String] = []
    var markers: [String] { lock.withLock { seen } }

    func willSend(_ request: URLRequest, context: RequestContext) {
        let marker = Self.marker ?? "elsewhere"
        lock.withLock { seen.append(marker) }
    }
}
