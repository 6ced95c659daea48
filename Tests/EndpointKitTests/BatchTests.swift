import EndpointKit
import EndpointKitComposition
import EndpointKitTestServer
import Foundation
import XCTest

/// Batches of requests of different types: both policies, the concurrency limit, cancel, the
/// closure, delegate and async forms.
final class BatchTests: LoopbackTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/item") { _ in .json(["id": 1, "name": "one"]) }
        server.route("/items") { _ in .json([["id": 2, "name": "two"], ["id": 3, "name": "three"]]) }
        server.route("/fail") { _ in .json(["message": "nope"], status: 500) }
        server.route("/stall") { _ in .stall }
        server.route("/stall/*") { _ in .stall }
    }

    /// Linux reports a connection closed mid-response, or garbage, as either of these.
    static func isBrokenConnection(_ reason: TransportError.Reason?) -> Bool {
        reason == .connectionLost || reason == .badResponse
    }

    func testThatKeepPartialKeepsEveryTypedResultInOrder() async {
        let batch = await client.send(
            RequestBatch(
                GetItem(), GetItems(path: "/fail"), EchoRequest(), GetItem(path: "/fault/close-mid-body"), GetItems()))
        let (item, failed, echo, lost, items) = batch.results
        XCTAssertEqual(item.value, Item(id: 1, name: "one"))
        XCTAssertEqual(failed.serverFailure?.statusCode, 500)
        XCTAssertEqual(echo.value?.path, "/echo")
        XCTAssertTrue(Self.isBrokenConnection(lost.transportReason), "\(lost)")
        XCTAssertEqual(items.value?.count, 2)
        XCTAssertEqual(batch.failure?.index, 1)
        XCTAssertEqual(batch.failure?.failure.statusCode, 500)
        XCTAssertThrowsError(try batch.values())
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatKeepPartialReportsATransportErrorWhenItIsTheOnlyFailure() async {
        let batch = await client.send(RequestBatch(GetItem(path: "/fault/garbage"), GetItems(), policy: .keepPartial))
        XCTAssertTrue(Self.isBrokenConnection(batch.results.0.transportReason), "\(batch.results.0)")
        XCTAssertEqual(batch.results.1.value?.count, 2)
        XCTAssertEqual(batch.failure?.index, 0)
        guard case .transport(let error)? = batch.failure?.failure else {
            return XCTFail("\(String(describing: batch.failure))")
        }
        XCTAssertTrue(Self.isBrokenConnection(error.reason))
    }

    func testThatASuccessfulBatchGivesItsValues() async throws {
        let batch = await client.send(
            RequestBatch(GetItem(), GetItems(), EchoRequest(method: .post), policy: .failFast))
        XCTAssertTrue(batch.isSuccess)
        let (item, items, echo) = try batch.values()
        XCTAssertEqual(item.name, "one")
        XCTAssertEqual(items.map(\.id), [2, 3])
        XCTAssertEqual(echo.method, "POST")
    }

    func testThatFailFastCancelsTheRunningAndTheWaitingRequests() async {
        let batch = await client.send(
            RequestBatch(
                GetItem(path: "/stall"), GetItems(path: "/fail"), GetItem(path: "/item"), EchoRequest(),
                policy: .failFast, maxConcurrent: 2))
        XCTAssertEqual(batch.failure?.index, 1)
        XCTAssertEqual(batch.failure?.failure.statusCode, 500)
        XCTAssertEqual(batch.results.0.transportReason, .cancelled)
        XCTAssertEqual(batch.results.1.serverFailure?.statusCode, 500)
        XCTAssertEqual(batch.results.2.transportReason, .cancelled)
        XCTAssertEqual(batch.results.3.transportReason, .cancelled)
        for waiting in [batch.results.2.failure, batch.results.3.failure] {
            guard case .transport(let error)? = waiting else { return XCTFail("\(String(describing: waiting))") }
            XCTAssertTrue(error.message.contains("not sent"), error.message)
        }
        XCTAssertLessThanOrEqual(server.requestCount, 2, "the waiting requests are never sent")
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatFailFastStopsOnATransportErrorToo() async {
        let batch = await client.send(
            RequestBatch(
                GetItem(path: "/stall"), GetItem(path: "/fault/close-mid-body"), policy: .failFast))
        XCTAssertEqual(batch.failure?.index, 1)
        XCTAssertTrue(Self.isBrokenConnection(batch.results.1.transportReason))
        XCTAssertEqual(batch.results.0.transportReason, .cancelled)
        XCTAssertFalse(batch.failure?.isCancelled ?? true)
    }

    func testThatCancellingMidBatchCompletesOnceAndStopsEverything() {
        let done = expectation(description: "batch completion")
        let box = Shared<BatchResult<(APIResult<Item>, APIResult<Item>, APIResult<[Item]>, APIResult<Item>)>?>(nil)
        let handle = client.send(
            RequestBatch(
                GetItem(), GetItem(path: "/stall"), GetItems(path: "/stall/list"), GetItem(path: "/stall/last"),
                maxConcurrent: 3
            )
        ) { result in
            box.set(result)
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 4, timeout: 5))
        XCTAssertEqual(handle.state, .running)
        handle.cancel()
        handle.cancel()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(handle.state, .cancelled)
        guard let result = box.value else { return XCTFail("no result") }
        XCTAssertNil(result.failure?.index)
        XCTAssertTrue(result.failure?.isCancelled ?? false)
        XCTAssertEqual(result.results.0.value, Item(id: 1, name: "one"))
        XCTAssertEqual(result.results.1.transportReason, .cancelled)
        XCTAssertEqual(result.results.2.transportReason, .cancelled)
        XCTAssertEqual(result.results.3.transportReason, .cancelled)
        XCTAssertEqual(server.requestCount, 4)
        XCTAssertTrue(waitUntilNothingInFlight())
    }

    func testThatCancellingTheTaskCancelsTheBatch() async {
        let client: APIClient = client
        let task = Task { await client.send(RequestBatch(GetItem(path: "/stall"), GetItems(path: "/stall"))) }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        task.cancel()
        let batch = await task.value
        XCTAssertTrue(batch.failure?.isCancelled ?? false)
        XCTAssertEqual(batch.results.0.transportReason, .cancelled)
        XCTAssertTrue(waitUntilNothingInFlight())
    }

    func testThatCancelAllRequestsReachesABatch() {
        let done = expectation(description: "batch completion")
        client.send(
            RequestBatch(
                [GetItem(path: "/stall"), GetItem(path: "/stall/2"), GetItem(path: "/stall/3")], maxConcurrent: 1)
        ) {
            XCTAssertTrue($0.failure?.isCancelled ?? false)
            XCTAssertEqual($0.results.map(\.transportReason), [.cancelled, .cancelled, .cancelled])
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        client.cancelAllRequests()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatEmptyBatchesCompleteImmediately() async {
        let empty = await client.send(RequestBatch())
        XCTAssertTrue(empty.isSuccess)
        let none = await client.send(RequestBatch([GetItem]()))
        XCTAssertTrue(none.results.isEmpty)
        XCTAssertEqual(try none.values(), [])

        let done = expectation(description: "closure")
        let handle = client.send(RequestBatch([GetItem]())) { result in
            XCTAssertTrue(result.isSuccess)
            done.fulfill()
        }
        XCTAssertEqual(handle.state, .completed)
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testThatTheConcurrencyLimitHolds() async {
        let gauge = Gauge()
        server.route("/slow/*") { request in
            gauge.enter()
            Thread.sleep(forTimeInterval: 0.05)
            gauge.leave()
            return .json(["id": Int(request.path.dropFirst(6)) ?? 0, "name": "slow"])
        }
        let requests = (0..<8).map { GetItem(path: "/slow/\($0)") }
        let batch = await client.send(RequestBatch(requests, maxConcurrent: 2))
        XCTAssertEqual(try batch.values().map(\.id), Array(0..<8))
        XCTAssertLessThanOrEqual(gauge.maximum, 2)
        XCTAssertEqual(server.requestCount, 8)
    }

    func testThatAnArrayBatchFailsFastWithTheFailingIndex() async {
        let requests = [GetItem(), GetItem(path: "/fail"), GetItem(path: "/stall")]
        let batch = await client.send(RequestBatch(requests, policy: .failFast, maxConcurrent: 1))
        XCTAssertEqual(batch.failure?.index, 1)
        XCTAssertEqual(batch.results.map(\.isSuccess), [true, false, false])
        XCTAssertEqual(batch.results[2].transportReason, .cancelled)
        XCTAssertThrowsError(try batch.values()) { XCTAssertEqual(($0 as? BatchFailure)?.index, 1) }
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatRequestsThatCannotBeBuiltFailInTheBatch() async {
        struct Broken: APIRequest {
            typealias Response = Item
            var path: RequestPath { "/item" }
            var headers: HTTPHeaders { ["X-Bad": "a\r\nb"] }
        }
        let batch = await client.send(RequestBatch(Array(repeating: Broken(), count: 500), maxConcurrent: 3))
        XCTAssertEqual(batch.failure?.index, 0)
        XCTAssertTrue(batch.results.allSatisfy { $0.transportReason == .requestBuildFailed })
        XCTAssertEqual(server.requestCount, 0)
    }

    @MainActor
    func testThatTheDelegateHearsTheOutcome() async {
        let controller = BatchController()
        let done = expectation(description: "delegate")
        done.expectedFulfillmentCount = 2
        controller.onEvent = { done.fulfill() }
        controller.okBatch = client.send(RequestBatch(GetItem(), GetItems()), delegate: controller)
        controller.failedBatch = client.send(
            RequestBatch(
                GetItem(), GetItem(path: "/fail"), policy: .failFast), delegate: controller)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(Set(controller.events), ["ok:one,2", "failed:1:500"])
    }
}

/// A controller in the YTKNetwork style, telling its batches apart by handle.
@MainActor
final class BatchController: BatchRequestDelegate {
    var events: [String] = []
    var onEvent: (() -> Void)?
    var okBatch: RequestHandle?
    var failedBatch: RequestHandle?

    func batch<Results: Sendable>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>) {
        if batch == okBatch, case (let item, let items)? = result.results as? (APIResult<Item>, APIResult<[Item]>) {
            events.append("ok:\(item.value?.name ?? "-"),\(items.value?.count ?? 0)")
        } else {
            events.append("unexpected success")
        }
        onEvent?()
    }

    func batch<Results: Sendable>(
        _ batch: RequestHandle, didFailWith failure: BatchFailure, result: BatchResult<Results>
    ) {
        events.append(
            batch == failedBatch ? "failed:\(failure.index ?? -1):\(failure.failure.statusCode ?? 0)" : "unexpected")
        onEvent?()
    }
}
