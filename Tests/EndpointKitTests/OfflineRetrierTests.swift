@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `OfflineRetrier` over loopback, with a connectivity probe the test flips.
final class OfflineRetrierTests: LoopbackTestCase {
    /// What the probe reports; the monitor polls it every 50 ms.
    let network = Locked(ConnectivityMonitor.Status.offline)
    var monitor: ConnectivityMonitor!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let network = network
        monitor = ConnectivityMonitor(pollingInterval: 0.05) { network.value }
        server.route("/item") { _ in .json(["id": 1, "name": "back"]) }
    }

    override func tearDown() {
        monitor = nil
        super.tearDown()
    }

    /// Waits (bounded) until the monitor has polled the probe's `status`.
    private func waitUntilTheMonitorReports(_ status: ConnectivityMonitor.Status) async throws {
        let deadline = Date(timeIntervalSinceNow: 5)
        while monitor.status != status, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertEqual(monitor.status, status)
    }

    /// A port nothing listens on (a server's, once stopped).
    private func refusedPort() throws -> UInt16 {
        let stopped = try TestServer()
        stopped.stop()
        return stopped.port
    }

    func testThatARequestThatFailedOfflineIsSentAgainOnceTheNetworkIsBack() async {
        let observed = ObservedRetrier(OfflineRetrier(monitor: monitor, maximumWait: 30), testCase: self)
        let client = makeClient {
            $0.connectivity = self.monitor
            $0.failsFastWhenOffline = true
            $0.retrier = observed
        }
        let send = Task { await client.send(GetItem()) }
        await fulfillment(of: [observed.asked], timeout: 10)
        XCTAssertEqual(server.requestCount, 0, "failed fast: nothing was sent")
        network.value = .online
        let result = await send.value
        XCTAssertEqual(result.value?.name, "back")
        await fulfillment(of: [observed.answered], timeout: 5)
        XCTAssertEqual(observed.decisions.value, [.retry(after: 0)])
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatARefusedConnectionWaitsOnlyWhileTheMonitorReportsOffline() async throws {
        let port = try refusedPort()
        var configuration = APIClient.Configuration(baseURL: URL(string: "http://127.0.0.1:\(port)"))
        configuration.timeouts.total = 10
        let observed = ObservedRetrier(OfflineRetrier(monitor: monitor, maximumWait: 30), testCase: self)
        configuration.retrier = observed
        let client = APIClient(configuration: configuration)

        // Offline: the refused connection waits for the network, then goes again (to a server
        // that is listening by then).
        let send = Task { await client.send(GetItem()) }
        await fulfillment(of: [observed.asked], timeout: 10)
        let revived = try TestServer(port: port)
        defer { revived.stop() }
        revived.route("/item") { _ in .json(["id": 2, "name": "listening"]) }
        network.value = .online
        let result = await send.value
        XCTAssertEqual(result.value?.name, "listening")
        await fulfillment(of: [observed.answered], timeout: 5)
        XCTAssertEqual(observed.decisions.value, [.retry(after: 0)])

        // Online: a refused connection is a server that is down; nothing to wait for.
        revived.stop()
        let observedOnline = ObservedRetrier(OfflineRetrier(monitor: monitor, maximumWait: 30), testCase: self)
        configuration.retrier = observedOnline
        let refused = await APIClient(configuration: configuration).send(GetItem())
        XCTAssertEqual(refused.transportReason, .cannotConnect)
        await fulfillment(of: [observedOnline.asked, observedOnline.answered], timeout: 5)
        XCTAssertEqual(observedOnline.decisions.value, [.noOpinion])
    }

    func testThatItGivesUpAfterItsLimitWithoutAskingTheNextRetrier() async throws {
        var eager = RetryPolicy(maxRetries: 3, baseDelay: 0, jitter: 0)
        eager.retryableReasons.insert(.notConnected)
        let next = CountingRetrier(eager)
        let client = makeClient {
            $0.connectivity = self.monitor
            $0.failsFastWhenOffline = true
            $0.retrier = OfflineRetrier(monitor: self.monitor, maximumWait: 0.2, otherwise: next)
        }
        let result = await client.send(GetItem())
        XCTAssertEqual(result.transportReason, .notConnected, "the attempt's own failure")
        XCTAssertEqual(next.calls, 0, "stop: the policy that would retry is not asked")
        XCTAssertEqual(server.requestCount, 0)

        // Other failures go to the next retrier.
        network.value = .online
        try await waitUntilTheMonitorReports(.online)
        server.route("/busy") { _ in .status(503) }
        let busy = await client.send(GetItem(path: "/busy"))
        XCTAssertEqual(busy.serverFailure?.statusCode, 503)
        XCTAssertEqual(next.calls, 4)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testThatASendIsWaitedForOnce() async throws {
        network.value = .online
        try await waitUntilTheMonitorReports(.online)
        var policy = RetryPolicy(maxRetries: 5, baseDelay: 7, jitter: 0)
        policy.retryableReasons.insert(.notConnected)
        let retrier = OfflineRetrier(monitor: monitor, maximumWait: 1, otherwise: policy)
        let request = try client.urlRequest(for: GetItem())
        func context(after failures: [APIFailure]) -> RequestContext {
            RequestContext(
                id: 1, endpoint: "GetItem", method: .get, tag: nil, attempt: failures.count + 1,
                previousFailures: failures)
        }
        let offline = APIFailure.transport(TransportError(.notConnected, message: "offline"))
        let first = await retrier.retry(request, failedWith: offline, context: context(after: []))
        XCTAssertEqual(first, .retry(after: 0), "online already: at once")
        network.value = .offline
        try await waitUntilTheMonitorReports(.offline)
        let second = await retrier.retry(request, failedWith: offline, context: context(after: [offline]))
        XCTAssertEqual(second, .retry(after: 14), "no second wait: the next retrier's answer (its second delay)")
    }

    func testThatCancellingWhileItWaitsEndsTheWaitAndCompletesOnceAsCancelled() async throws {
        let observed = ObservedRetrier(OfflineRetrier(monitor: monitor, maximumWait: 600), testCase: self)
        let client = makeClient {
            $0.timeouts.total = 0
            $0.connectivity = self.monitor
            $0.failsFastWhenOffline = true
            $0.retrier = observed
        }
        let completed = expectation(description: "completion")
        let results = ResultBox<Item>()
        let handle = client.send(GetItem()) { result in
            results.append(result)
            completed.fulfill()
        }
        await fulfillment(of: [observed.asked], timeout: 10)
        handle.cancel()
        // The wait ends long before its 600 s limit or the request's 60 s idle timeout.
        await fulfillment(of: [completed, observed.answered], timeout: 10)
        network.value = .online
        // A retry, had there been one, would be sent within a few polls of the monitor.
        try await Task.sleep(nanoseconds: 300_000_000)
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        await fulfillment(of: [drained], timeout: 5)
        XCTAssertEqual(results.results.map(\.transportReason), [.cancelled])
        XCTAssertEqual(server.requestCount, 0)
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }
}

/// Passes every question to another retrier, and tells the test when it was asked and what it answered.
final class ObservedRetrier: RequestRetrier, @unchecked Sendable {
    let inner: any RequestRetrier
    let asked: XCTestExpectation
    let answered: XCTestExpectation
    let decisions = Shared<[RetryDecision]>([])

    init(_ inner: any RequestRetrier, testCase: XCTestCase) {
        self.inner = inner
        asked = testCase.expectation(description: "retrier asked")
        asked.assertForOverFulfill = false
        answered = testCase.expectation(description: "retrier answered")
        answered.assertForOverFulfill = false
    }

    func retry(_ request: URLRequest, failedWith failure: APIFailure, context: RequestContext) async -> RetryDecision {
        asked.fulfill()
        let decision = await inner.retry(request, failedWith: failure, context: context)
        decisions.update { $0.append(decision) }
        answered.fulfill()
        return decision
    }
}

/// Counts the questions it passes on.
final class CountingRetrier: RequestRetrier, @unchecked Sendable {
    let inner: any RequestRetrier
    private let count = Shared(0)

    init(_ inner: any RequestRetrier) { self.inner = inner }

    var calls: Int { count.value }

    func retry(_ request: URLRequest, failedWith failure: APIFailure, context: RequestContext) async -> RetryDecision {
        count.update { $0 += 1 }
        return await inner.retry(request, failedWith: failure, context: context)
    }
}
