import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical GETs in flight share one network call when the client (or the request) asks for it;
/// each caller keeps its own completion.
final class CoalescingTests: LoopbackTestCase {
    /// Holds the server's answer until the test opens it (bounded, so a failing test still ends).
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func wait() { _ = semaphore.wait(timeout: .now() + 10) }
        func open() { semaphore.signal() }
    }

    struct Private: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/shared" }
        var coalescesIdenticalRequests: Bool? { false }
    }

    struct WithHeader: APIRequest {
        typealias Response = Item
        let value: String
        var path: RequestPath { "/shared" }
        var headers: HTTPHeaders { ["X-Variant": value] }
    }

    let gate = Gate()

    /// Waits until the first attempt of every send started so far has run, so each closure send
    /// has joined its flight: they start on the client's processing queue, not on the caller's
    /// thread, and a send that arrived after the answer would start a transfer of its own.
    private func waitUntilTheSendsJoined() {
        client.processingQueue.sync(flags: .barrier) {}
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        client = makeClient { $0.coalescesIdenticalRequests = true }
        let gate = gate
        server.route("/shared") { _ in
            gate.wait()
            return .json(["id": 1, "name": "shared"])
        }
    }

    /// A shared transfer that completed, or whose callers all left, holds neither the client nor
    /// its transport: both go away with the caller's last reference (their connections with them).
    func testThatACoalescedTransferKeepsNothingAliveOnceItEnded() async {
        gate.open()
        weak var weakTransport: URLSessionTransport?
        weak var weakClient: APIClient?
        do {
            let transport = URLSessionTransport()
            let client = makeClient {
                $0.transport = transport
                $0.coalescesIdenticalRequests = true
            }
            weakTransport = transport
            weakClient = client
            async let first = client.send(GetItem(path: "/shared"))
            async let second = client.send(GetItem(path: "/shared"))
            let results = await [first, second]
            XCTAssertEqual(results.compactMap(\.value), [Item(id: 1, name: "shared"), Item(id: 1, name: "shared")])
            let cancelled = client.send(GetItem(path: "/fault/stall")) { _ in }
            cancelled.cancel()
        }
        for _ in 0..<200 where weakTransport != nil || weakClient != nil {
            try? await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertNil(weakClient, "the client")
        XCTAssertNil(weakTransport, "its transport")
    }

    func testThatTwentyIdenticalGetsMakeOneServerHitAndOneCallerCanCancel() {
        let done = expectation(description: "twenty completions")
        done.expectedFulfillmentCount = 20
        let results = ResultBox<Item>()
        let handles = (0..<20).map { _ in
            client.send(GetItem(path: "/shared")) { result in
                results.append(result)
                done.fulfill()
            }
        }
        waitUntilTheSendsJoined()
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        handles[0].cancel()  // the caller whose send started the transfer
        gate.open()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertEqual(results.results.filter { $0.transportReason == .cancelled }.count, 1)
        XCTAssertEqual(results.results.compactMap(\.value), Array(repeating: Item(id: 1, name: "shared"), count: 19))
        XCTAssertEqual(handles[0].state, .cancelled)
        XCTAssertTrue(handles.dropFirst().allSatisfy { $0.state == .completed })
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    /// A plugin hears `willSend` once per request on the wire and `didComplete` once per send: a
    /// counter of `willSend` counts what the server received, coalesced or not.
    func testThatPluginsHearOneWillSendPerWireRequestAndOneCompletionPerSend() {
        final class Tally: APIPlugin, @unchecked Sendable {
            let lock = NSLock()
            var sent = 0
            var received = 0
            var completed = 0
            func willSend(_ request: URLRequest, context: RequestContext) { lock.withLock { sent += 1 } }
            func didReceive(
                _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext
            ) { lock.withLock { received += 1 } }
            func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
                lock.withLock { completed += 1 }
            }
            var counts: [Int] { lock.withLock { [sent, received, completed] } }
        }
        let tally = Tally()
        client = makeClient {
            $0.coalescesIdenticalRequests = true
            $0.plugins = [tally]
        }
        let done = expectation(description: "five completions")
        done.expectedFulfillmentCount = 5
        for _ in 0..<5 { client.send(GetItem(path: "/shared")) { _ in done.fulfill() } }
        waitUntilTheSendsJoined()
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        gate.open()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertEqual(tally.counts, [1, 5, 5], "willSend per wire request; didReceive and didComplete per send")

        // An uncoalesced send is a request of its own: heard again.
        gate.open()
        XCTAssertEqual(sendAndWait(Private())?.value?.name, "shared")
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(tally.counts, [2, 6, 6])
    }

    func testThatTheTransferIsCancelledOnlyWhenEveryCallerCancelled() {
        let attempts = Counter()
        server.route("/first-stalls") { _ in
            attempts.increment()
            return attempts.value() == 1 ? .stall : .json(["id": 2, "name": "second"])
        }
        let done = expectation(description: "three cancels")
        done.expectedFulfillmentCount = 3
        let handles = (0..<3).map { _ in
            client.send(GetItem(path: "/first-stalls")) { result in
                XCTAssertEqual(result.transportReason, .cancelled)
                done.fulfill()
            }
        }
        waitUntilTheSendsJoined()
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        handles[0].cancel()
        handles[1].cancel()
        XCTAssertEqual(server.openConnectionCount, 1, "two of three callers left: the transfer goes on")
        handles[2].cancel()
        wait(for: [done], timeout: 5)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 5), "the shared transfer was cancelled")

        // Nothing is cached: the next identical request is a new transfer.
        XCTAssertEqual(sendAndWait(GetItem(path: "/first-stalls"))?.value?.name, "second")
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatDifferentEndpointTypesDoNotShare() {
        struct SameURL: APIRequest {
            typealias Response = User
            var path: RequestPath { "/shared" }
        }
        gate.open()
        gate.open()
        let done = expectation(description: "both")
        done.expectedFulfillmentCount = 2
        client.send(GetItem(path: "/shared")) { result in
            XCTAssertEqual(result.value?.name, "shared")
            done.fulfill()
        }
        client.send(SameURL()) { result in
            XCTAssertEqual(result.value?.identifier, 1)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatRequestsCanOptOutAndDifferentHeadersDoNotShare() {
        gate.open()
        gate.open()
        gate.open()
        gate.open()
        let done = expectation(description: "four")
        done.expectedFulfillmentCount = 4
        client.send(Private()) { _ in done.fulfill() }
        client.send(Private()) { _ in done.fulfill() }
        client.send(WithHeader(value: "a")) { _ in done.fulfill() }
        client.send(WithHeader(value: "b")) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testThatPostsAreNotSharedByDefault() {
        server.route("/echo-post") { _ in .json(["id": 1, "name": "posted"]) }
        struct Post: APIRequest {
            typealias Response = Item
            var method: HTTPMethod { .post }
            var path: RequestPath { "/echo-post" }
        }
        XCTAssertNil(Post().coalescesIdenticalRequests)
        XCTAssertNil(GetItem().coalescesIdenticalRequests)
        let done = expectation(description: "two")
        done.expectedFulfillmentCount = 2
        client.send(Post()) { _ in done.fulfill() }
        client.send(Post()) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatAsyncCallersShareToo() async {
        let client: APIClient = client
        let gate = gate
        let task = Task {
            await withTaskGroup(of: APIResult<Item>.self) { group in
                for _ in 0..<10 { group.addTask { await client.send(GetItem(path: "/shared")) } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        gate.open()
        gate.open()
        let results = await task.value
        XCTAssertEqual(results.compactMap(\.value).count, 10)
        XCTAssertLessThanOrEqual(server.requestCount, 2)
    }

    /// Coalescing is opt-in: on a plain client ten identical GETs in flight are ten requests, and a
    /// request that asks for it shares one transfer there all the same.
    func testThatAPlainClientSendsTenIdenticalGETsAsTenRequests() {
        let plain = makeClient()
        struct Shared: APIRequest {
            typealias Response = Item
            var path: RequestPath { "/shared" }
            var coalescesIdenticalRequests: Bool? { true }
        }
        for (count, expected) in [(10, 10), (5, 1)] {
            let before = server.requestCount
            let done = expectation(description: "all")
            done.expectedFulfillmentCount = count
            for _ in 0..<count {
                if expected == count {
                    plain.send(WithHeader(value: "same")) { _ in done.fulfill() }
                } else {
                    plain.send(Shared()) { _ in done.fulfill() }
                }
            }
            XCTAssertTrue(server.waitForRequestCount(atLeast: before + expected, timeout: 5))
            Thread.sleep(forTimeInterval: 0.2)
            for _ in 0..<expected { gate.open() }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(server.requestCount - before, expected)
        }
    }
}
