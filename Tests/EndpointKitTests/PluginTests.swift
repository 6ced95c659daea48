import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// The activity indicator returns to zero after success, failure and cancel.
final class PluginTests: LoopbackTestCase {
    struct Quiet: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/item" }
        var showsActivityIndicator: Bool { false }
    }

    @MainActor
    func testThatTheActivityCountReturnsToZeroAfterSuccessFailureAndCancel() async {
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        server.route("/fail") { _ in .status(500) }
        server.route("/stall") { _ in .stall }
        var counts: [Int] = []
        var starts = 0
        var stops = 0
        let plugin = ActivityIndicatorPlugin(
            onStart: { starts += 1 }, onStop: { stops += 1 }, onChange: { counts.append($0) })
        let client = makeClient { $0.plugins = [plugin] }
        let stalled = client.send(GetItem(path: "/stall")) { _ in }
        async let success = client.send(GetItem())
        async let failure = client.send(GetItem(path: "/fail"))
        _ = await (success, failure)
        stalled.cancel()
        _ = await client.send(Quiet())
        XCTAssertEqual(plugin.count, 0)
        let settled = expectation(description: "main queue drained")
        DispatchQueue.main.async { settled.fulfill() }
        await fulfillment(of: [settled], timeout: 5)
        XCTAssertEqual(counts.last, 0)
        XCTAssertEqual(counts.max(), 3)
        XCTAssertEqual(starts, stops)
        XCTAssertGreaterThanOrEqual(starts, 1)
    }
}
