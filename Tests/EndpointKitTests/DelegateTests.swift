import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// The three-method delegate, for struct requests and subclass requests.
final class DelegateTests: LoopbackTestCase {
    @MainActor
    final class Controller: APIRequestDelegate {
        var events: [String] = []
        var onEvent: (() -> Void)?
        var profileRequest: ItemRequest?

        func request<R: APIRequest>(_ request: R, didSucceedWith value: R.Response, metadata: ResponseMetadata) {
            if let request = request as? ItemRequest, request === profileRequest, let item = value as? Item {
                events.append("profile:\(item.name)")
            } else if let item = value as? Item {
                events.append("success:\(item.name)")
            } else {
                events.append("success:other")
            }
            onEvent?()
        }

        func request<R: APIRequest>(_ request: R, didFailOnServer failure: ServerFailure) {
            events.append("server:\(failure.statusCode)")
            onEvent?()
        }

        func request<R: APIRequest>(_ request: R, didFailInTransport error: TransportError) {
            events.append("transport:\(error.reason)")
            onEvent?()
        }
    }

    @MainActor
    func testThatTheDelegateTellsTwoConcurrentRequestsApart() async {
        server.route("/items/*") { request in
            request.path == "/items/1" ? .delayed(0.2, .json(["id": 1, "name": "profile"])) : .status(503)
        }
        server.route("/item") { _ in .json(["id": 2, "name": "feed"]) }
        let controller = Controller()
        let done = expectation(description: "three events")
        done.expectedFulfillmentCount = 3
        controller.onEvent = { done.fulfill() }
        let profile = ItemRequest(itemID: 1)
        controller.profileRequest = profile
        profile.delegate = controller
        profile.start(with: client)
        client.send(GetItem(), delegate: controller)
        client.send(ItemRequest(itemID: 2), delegate: controller)
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(Set(controller.events), ["profile:profile", "success:feed", "server:503"])
    }

    @MainActor
    func testThatDelegatesHearAboutCancelAndAreHeldWeakly() async {
        server.route("/item") { _ in .stall }
        let controller = Controller()
        let done = expectation(description: "cancel event")
        controller.onEvent = { done.fulfill() }
        let handle = client.send(GetItem(), delegate: controller)
        handle.cancel()
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(controller.events, ["transport:cancelled"])

        weak var released: Controller?
        do {
            let temporary = Controller()
            released = temporary
            client.send(GetItem(), delegate: temporary).cancel()
        }
        XCTAssertNil(released)
    }

    @MainActor
    func testThatASubclassRequestCanBeRestarted() async {
        server.route("/items/*") { _ in .json(["id": 3, "name": "again"]) }
        let request = ItemRequest(itemID: 3)
        for _ in 0..<3 {
            let done = expectation(description: "send")
            request.start(with: client) { result in
                XCTAssertEqual(result.value?.name, "again")
                done.fulfill()
            }
            await fulfillment(of: [done], timeout: 5)
        }
        XCTAssertFalse(request.isExecuting)
    }

    @MainActor
    func testThatStopCompletesTheRunningSendOnceAsCancelled() async {
        server.route("/items/*") { _ in .stall }
        let controller = Controller()
        let told = expectation(description: "delegate told")
        controller.onEvent = { told.fulfill() }
        let request = ItemRequest(itemID: 4)
        request.delegate = controller
        let completed = expectation(description: "completion")
        let results = ResultBox<Item>()
        request.start(with: client) { result in
            results.append(result)
            completed.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        XCTAssertTrue(request.isExecuting)

        request.stop()
        await fulfillment(of: [completed, told], timeout: 5)
        request.stop()  // nothing left to stop
        // A second delivery, if there were one, would come through the main queue: let it arrive.
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { DispatchQueue.main.async { drained.fulfill() } }
        await fulfillment(of: [drained], timeout: 5)
        XCTAssertEqual(results.results.map(\.transportReason), [.cancelled])
        XCTAssertEqual(controller.events, ["transport:cancelled"])
        XCTAssertFalse(request.isExecuting)
        XCTAssertTrue(client.inFlightRequests.isEmpty)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 5), "the transfer was cancelled too")
    }

    @MainActor
    func testThatRestartingWhileRunningCancelsThePreviousSend() async {
        server.route("/items/*") { _ in .delayed(0.3, .json(["id": 3, "name": "x"])) }
        let request = ItemRequest(itemID: 3)
        let first = expectation(description: "first")
        let second = expectation(description: "second")
        request.start(with: client) { result in
            XCTAssertEqual(result.transportReason, .cancelled)
            first.fulfill()
        }
        request.start(with: client) { result in
            XCTAssertEqual(result.value?.name, "x")
            second.fulfill()
        }
        XCTAssertTrue(request.isExecuting)
        await fulfillment(of: [first, second], timeout: 5)
        request.stop()
    }
}
