import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the server receives; closure, delegate and async delivery; exactly-once under cancel and timeout.
final class DeliveryTests: LoopbackTestCase {
    func testThatClosuresRunOnTheMainActor() async {
        let done = expectation(description: "done")
        client.send(EchoRequest()) { result in
            MainActorProbe.check()
            XCTAssertEqual(result.value?.method, "GET")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
    }

    func testThatTheQueueFormRunsOnTheQueueGiven() {
        let queue = DispatchQueue(label: "custom.callbacks")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "custom")
        let done = expectation(description: "done")
        client.send(EchoRequest(), on: queue) { result in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), "custom")
            XCTAssertFalse(Thread.isMainThread)
            XCTAssertEqual(result.value?.method, "GET")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    /// Records the order in which a closure and a delegate hear about one send.
    @MainActor
    final class OrderRecorder: APIRequestDelegate {
        let events = Locked<[String]>([])
        var onDelegate: (() -> Void)?

        func request<R: APIRequest>(_ request: R, didSucceedWith value: R.Response, metadata: ResponseMetadata) {
            events.withLock { $0.append("delegate") }
            onDelegate?()
        }
    }

    /// The delegate hears in the closure's turn of the main queue: before anything the closure
    /// schedules there.
    @MainActor
    func testThatTheDelegateHearsInTheClosuresTurn() async {
        let recorder = OrderRecorder()
        let done = expectation(description: "next turn")
        let events = recorder.events
        let request = EchoSubclass()
        request.delegate = recorder
        request.start(with: client) { _ in
            events.withLock { $0.append("closure") }
            DispatchQueue.main.async {
                events.withLock { $0.append("next turn") }
                done.fulfill()
            }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(events.value, ["closure", "delegate", "next turn"])
    }

    /// With the queue form the delegate still hears on the main actor, after the closure returned.
    @MainActor
    func testThatTheDelegateHearsAfterAQueueFormsClosure() async {
        let recorder = OrderRecorder()
        let done = expectation(description: "delegate")
        recorder.onDelegate = { done.fulfill() }
        let events = recorder.events
        let request = EchoSubclass()
        request.delegate = recorder
        client.send(request, on: DispatchQueue(label: "custom.callbacks")) { _ in
            // A slow closure: a delegate scheduled independently would run meanwhile.
            Thread.sleep(forTimeInterval: 0.3)
            events.withLock { $0.append("closure") }
        }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(events.value, ["closure", "delegate"])
    }

    func testThatEchoSeesMethodQueryHeadersAndBody() async throws {
        let request = EchoRequest(
            method: .put, parameters: .json(["name": "Ada"]).appendingQuery(["a": 1, "b": ["x", "y"]]),
            headers: ["X-Trace": "t-1"])
        let echo = try await client.value(for: request)
        XCTAssertEqual(echo.method, "PUT")
        XCTAssertEqual(echo.query, [["a", "1"], ["b", "x"], ["b", "y"]])
        XCTAssertEqual(echo.headers["x-trace"], "t-1")
        XCTAssertEqual(echo.json, ["name": "Ada"])
    }

    func testThatFormBodiesArriveAsForms() async throws {
        let echo = try await client.value(
            for: EchoRequest(method: .post, parameters: ["user": "ada lovelace", "n": 2]))
        XCTAssertEqual(echo.form, ["user": "ada lovelace", "n": "2"])
    }

    func testThatDELETESendsMethodDependentParametersInTheQuery() async throws {
        let echo = try await client.value(
            for: EchoRequest(method: .delete, parameters: ["id": 7, "reason": "spam report"]))
        XCTAssertEqual(echo.method, "DELETE")
        XCTAssertEqual(echo.query, [["id", "7"], ["reason", "spam report"]])
        XCTAssertNil(echo.form)
        XCTAssertEqual(echo.body, "")
        XCTAssertNil(echo.headers["content-type"])
    }

    func testThatAQueryInTheBaseURLReachesTheServerFirst() async throws {
        let client = makeClient {
            $0.baseURL = URL(string: "\(self.server.baseURL.absoluteString)/?key=1")
            $0.commonParameters = ["app": "ios"]
        }
        let echo = try await client.value(for: EchoRequest(parameters: .query(["q": "x"])))
        XCTAssertEqual(echo.query, [["key", "1"], ["app", "ios"], ["q", "x"]])
    }

    func testThatATopLevelJSONArrayBodyArrivesIntact() async throws {
        let literal = try await client.value(
            for: EchoRequest(method: .post, parameters: .json([1, "two", ["three": 3], [4.5, nil, true], []])))
        XCTAssertEqual(literal.json, [1, "two", ["three": 3], [4.5, nil, true], []])
        XCTAssertEqual(literal.headers["content-type"], "application/json")

        let items = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
        let encoded = try await client.value(for: EchoRequest(method: .put, parameters: .json(items)))
        XCTAssertEqual(encoded.json, [["id": 1, "name": "a"], ["id": 2, "name": "b"]])
        XCTAssertEqual(try JSONDecoder().decode([Item].self, from: Data((encoded.body ?? "").utf8)), items)
    }

    func testThatEveryMethodIsSent() async throws {
        for method: HTTPMethod in [.get, .post, .put, .delete, .patch, .options, "PROPFIND"] {
            let echo = try await client.value(for: EchoRequest(method: method))
            XCTAssertEqual(echo.method, method.rawValue)
        }
        struct Head: APIRequest {
            typealias Response = Empty
            var method: HTTPMethod { .head }
            var path: RequestPath { "/echo" }
        }
        let head = await client.send(Head())
        XCTAssertEqual(head.metadata?.statusCode, 200)
        XCTAssertTrue(head.isSuccess)
    }

    func testThatValueThrowsTheTypedFailure() async {
        server.route("/item") { _ in .status(404) }
        do {
            _ = try await client.value(for: GetItem())
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error.serverFailure?.statusCode, 404, "\(error)")
        }
    }

    func testThatCancellingAHandleCompletesOnceAsCancelled() {
        server.route("/item") { _ in .delayed(0.5, .json(["id": 1, "name": "late"])) }
        let counter = Counter()
        let done = expectation(description: "done")
        let handle = client.send(GetItem()) { result in
            counter.increment()
            XCTAssertEqual(result.transportReason, .cancelled)
            done.fulfill()
        }
        handle.cancel()
        handle.cancel()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(handle.state, .cancelled)
        // The server's late answer must not produce a second completion.
        Thread.sleep(forTimeInterval: 0.8)
        XCTAssertEqual(counter.total, 1)
    }

    func testThatCancellingAfterCompletionDoesNothing() async {
        let result = await withCheckedContinuation { continuation in
            let handle = client.send(EchoRequest()) { continuation.resume(returning: $0) }
            _ = handle
        }
        XCTAssertTrue(result.isSuccess)
    }

    func testThatTaskCancellationCancelsTheRequest() async {
        server.route("/item") { _ in .stall }
        let client: APIClient = client
        let task = Task { await client.send(GetItem()) }
        try? await Task.sleep(nanoseconds: 100_000_000)
        task.cancel()
        let result = await task.value
        XCTAssertEqual(result.transportReason, .cancelled)
    }

    func testThatAnAlreadyCancelledTaskCancelsAtOnce() async {
        server.route("/item") { _ in .stall }
        let client: APIClient = client
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await client.send(GetItem())
        }
        let result = await task.value
        XCTAssertEqual(result.transportReason, .cancelled)
    }

    func testThatManyRequestsWithRandomCancelsAndTimeoutsCompleteExactlyOnce() {
        server.route("/item") { request in
            switch Int(request.queryValue("n") ?? "0")! % 4 {
            case 0: return .json(["id": 1, "name": "a"])
            case 1: return .delayed(0.05, .json(["id": 2, "name": "b"]))
            case 2: return .stall
            default: return .status(500)
            }
        }
        struct Numbered: APIRequest {
            typealias Response = Item
            let n: Int
            var path: RequestPath { "/item" }
            var parameters: RequestParameters { .query(["n": QueryValue(n)]) }
            var totalTimeout: TimeInterval? { 0.5 }
        }
        let total = 200
        let counter = Counter()
        let done = expectation(description: "all")
        done.expectedFulfillmentCount = total
        var handles: [RequestHandle] = []
        for n in 0..<total {
            handles.append(
                client.send(Numbered(n: n)) { result in
                    counter.increment(String(n))
                    done.fulfill()
                })
        }
        for (index, handle) in handles.enumerated() where index % 3 == 0 { handle.cancel() }
        wait(for: [done], timeout: 20)
        Thread.sleep(forTimeInterval: 0.7)
        XCTAssertEqual(counter.total, total)
        XCTAssertTrue((0..<total).allSatisfy { counter.value(String($0)) == 1 })
        XCTAssertTrue(handles.allSatisfy { !$0.isRunning })
    }
}

extension DeliveryTests {
    func testThatASubSecondTimeoutDoesNotFailAFastRequest() async {
        // FoundationNetworking truncates idle timeouts to whole seconds; 0.5 must not fire at once.
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let result = await client.send(GetItem(totalTimeout: 0.5))
        XCTAssertEqual(result.value, Item(id: 1, name: "a"))
        server.route("/item") { _ in .delayed(0.2, .json(["id": 1, "name": "a"])) }
        let delayed = await client.send(GetItem(totalTimeout: 0.6))
        XCTAssertEqual(delayed.value, Item(id: 1, name: "a"))
    }
}
