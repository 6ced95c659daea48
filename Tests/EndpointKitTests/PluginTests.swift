import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// The activity indicator counts the requests in flight that want it, and returns to zero after
/// success, failure and cancel.
final class PluginTests: LoopbackTestCase {
    /// Holds the server's answers until the test opens it; once open it stays open. The wait is
    /// bounded, so a failing test still ends.
    final class Latch: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false

        func wait() {
            let deadline = Date(timeIntervalSinceNow: 10)
            condition.lock()
            while !isOpen, condition.wait(until: deadline) {}
            condition.unlock()
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }

    struct Quiet: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/quiet" }
        var showsActivityIndicator: Bool { false }
    }

    /// Every request is held by the server until the test lets it go, so the count is looked at
    /// while a known set of requests is in flight, not whenever the scheduler happens to overlap them.
    @MainActor
    func testThatOnlyRequestsThatShowTheIndicatorAreCountedFromSendToCompletion() async {
        let answers = Latch()
        let quietAnswer = Latch()
        defer {
            answers.open()
            quietAnswer.open()
        }
        server.route("/stall") { _ in .stall }
        server.route("/item") { _ in
            answers.wait()
            return .json(["id": 1, "name": "a"])
        }
        server.route("/fail") { _ in
            answers.wait()
            return .status(500)
        }
        server.route("/quiet") { _ in
            quietAnswer.wait()
            return .json(["id": 2, "name": "quiet"])
        }
        var counts: [Int] = []
        var starts = 0
        var stops = 0
        let plugin = ActivityIndicatorPlugin(
            onStart: { starts += 1 }, onStop: { stops += 1 }, onChange: { counts.append($0) })
        let client = makeClient { $0.plugins = [plugin] }

        let stalledDone = expectation(description: "stalled request cancelled")
        let stalled = client.send(GetItem(path: "/stall")) { result in
            XCTAssertEqual(result.transportReason, .cancelled)
            stalledDone.fulfill()
        }
        let answered = expectation(description: "success and failure")
        answered.expectedFulfillmentCount = 2
        let results = ResultBox<Item>()
        for request in [GetItem(), GetItem(path: "/fail")] {
            client.send(request) { result in
                results.append(result)
                answered.fulfill()
            }
        }
        let quietDone = expectation(description: "quiet request")
        let quietResults = ResultBox<Item>()
        client.send(Quiet()) { result in
            quietResults.append(result)
            quietDone.fulfill()
        }

        // The server has read all four, so each was counted (or not) before it was sent.
        XCTAssertTrue(server.waitForRequestCount(atLeast: 4, timeout: 5))
        XCTAssertEqual(plugin.count, 3, "the stalled, the succeeding and the failing request, not the quiet one")

        answers.open()
        await fulfillment(of: [answered], timeout: 10)
        XCTAssertEqual(results.results.compactMap(\.value), [Item(id: 1, name: "a")])
        XCTAssertEqual(results.results.compactMap(\.serverFailure).map(\.statusCode), [500])
        XCTAssertEqual(plugin.count, 1, "the stalled request")

        stalled.cancel()
        await fulfillment(of: [stalledDone], timeout: 5)
        XCTAssertEqual(plugin.count, 0, "the quiet request is still in flight, and not counted")

        quietAnswer.open()
        await fulfillment(of: [quietDone], timeout: 10)
        XCTAssertEqual(quietResults.results.first?.value, Item(id: 2, name: "quiet"))
        XCTAssertEqual(plugin.count, 0)

        // Notifications reach the main queue in the order of the counts; let the last ones arrive.
        let settled = expectation(description: "main queue drained")
        DispatchQueue.main.async { settled.fulfill() }
        await fulfillment(of: [settled], timeout: 5)
        XCTAssertEqual(counts, [1, 2, 3, 2, 1, 0])
        XCTAssertEqual(starts, 1)
        XCTAssertEqual(stops, 1, "once, when the stalled request ended, the quiet one still in flight")
    }
}
