#if os(Linux)
import EndpointKitTestServer
import Foundation
import XCTest

@_spi(Internal) @testable import EndpointKit

/// ``CurlTransport/executor``: code that prefers it runs on the transport's event-loop thread,
/// requests behave as they do without it, and it never strands a task.
final class CurlExecutorTests: LoopbackTestCase {
    private var transport: CurlTransport!

    override func setUpWithError() throws {
        transport = try CurlTransport()
        try super.setUpWithError()
    }

    override func tearDown() {
        super.tearDown()
        transport = nil
    }

    override func makeClient(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        super.makeClient { configuration in
            configuration.transport = self.transport
            configure(&configuration)
        }
    }

    private var loop: CurlEventLoop? { transport.executor as? CurlEventLoop }

    /// Decodes like `Item`, noting whether decoding ran on the transport's thread.
    private struct ThreadNotingItem: APIRequest {
        typealias Response = Item
        let loop: CurlEventLoop?
        let onLoop: Counter
        var path: RequestPath { "/item" }

        func decode(_ context: DecodingContext) throws -> Item {
            onLoop.increment(loop?.isCurrentThread == true ? "loop" : "elsewhere")
            return try context.decodeDefault(Item.self)
        }
    }

    private func routeItem() {
        server.route("/item") { _ in .json(["id": 7, "name": "seven"]) }
    }

    func testThatSequentialRequestsUnderThePreferenceRunAndDecodeOnTheLoopThread() async throws {
        routeItem()
        let onLoop = Counter()
        let request = ThreadNotingItem(loop: loop, onLoop: onLoop)
        let client = try XCTUnwrap(client)
        try await withTaskExecutorPreference(transport.executor) {
            for _ in 0..<50 {
                let item = try await client.value(for: request)
                XCTAssertEqual(item, Item(id: 7, name: "seven"))
                XCTAssertTrue(self.loop?.isCurrentThread == true, "the awaiting code resumed off the loop thread")
            }
        }
        XCTAssertEqual(onLoop.value("loop"), 50)
        XCTAssertEqual(onLoop.value("elsewhere"), 0)
        // Without the preference, the transport's thread runs no request code.
        _ = try await client.value(for: request)
        XCTAssertEqual(onLoop.value("elsewhere"), 1)
    }

    func testThatRequestsInFlightUnderThePreferenceAllComplete() async throws {
        routeItem()
        let client = try XCTUnwrap(client)
        // 200 requests from child tasks that inherit the preference, 16 at a time.
        let results = await withTaskExecutorPreference(transport.executor) {
            await withTaskGroup(of: APIResult<Item>.self) { group in
                var results: [APIResult<Item>] = []
                for index in 0..<200 {
                    if index >= 16, let result = await group.next() { results.append(result) }
                    group.addTask { await client.send(GetItem()) }
                }
                for await result in group { results.append(result) }
                return results
            }
        }
        XCTAssertEqual(results.count, 200)
        XCTAssertEqual(results.filter { $0.value == Item(id: 7, name: "seven") }.count, 200)
        XCTAssertTrue(Self.eventually { self.transport.activeTransferCount == 0 })
    }

    func testThatAFailureAndACancellationUnderThePreferenceCompleteOnce() async throws {
        let client = try XCTUnwrap(client)
        let missing = await withTaskExecutorPreference(transport.executor) {
            await client.send(GetItem(path: "/nowhere"))
        }
        XCTAssertEqual(missing.serverFailure?.statusCode, 404)

        let executor = transport.executor
        let done = expectation(description: "cancelled")
        let cancelled = ResultBox<Item>()
        let task = Task {
            cancelled.append(
                await withTaskExecutorPreference(executor) {
                    await client.send(GetItem(path: "/fault/stall", totalTimeout: 30))
                })
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 10))
        task.cancel()
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(cancelled.results.map(\.transportReason), [.cancelled])
        XCTAssertTrue(Self.eventually { self.transport.activeTransferCount == 0 })
    }

    func testThatTheExecutorStillRunsJobsAfterTheTransportIsGone() async throws {
        let executor = transport.executor
        let loop = try XCTUnwrap(loop)
        client = nil
        transport = nil
        XCTAssertTrue(Self.eventually { !loop.isRunning }, "the loop did not stop")
        let done = expectation(description: "ran")
        let ran = Counter()
        Task {
            await withTaskExecutorPreference(executor) {
                await Task.yield()
                ran.increment()
            }
            done.fulfill()
        }
        // Not awaiting the task itself: were its job lost, that would never return.
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(ran.total, 1)
    }

    private static func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}
#endif
