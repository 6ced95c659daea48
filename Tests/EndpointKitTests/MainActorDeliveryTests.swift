import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Checks, inside a `@MainActor` closure, that it really runs on the main thread.
enum MainActorProbe {
    @MainActor
    static func check(file: StaticString = #filePath, line: UInt = #line) {
        dispatchPrecondition(condition: .onQueue(.main))
        XCTAssertTrue(Thread.isMainThread, file: file, line: line)
    }
}

/// A transport that cancels the send from its own completion thread, before handing the
/// response over: a cancel that comes from the transport's thread.
final class CancellingTransport: Transport {
    let inner: any Transport
    let handle = Locked<RequestHandle?>(nil)

    init(inner: any Transport) { self.inner = inner }

    func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        inner.execute(request) { [handle] outcome in
            handle.withLock { $0 }?.cancel()
            completion(outcome)
        }
    }
}

/// Every closure form runs on the main actor, whatever thread ends the send: a `@MainActor`
/// closure called anywhere else would trap.
final class MainActorDeliveryTests: LoopbackTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/item") { _ in .delayed(0.3, .json(["id": 1, "name": "late"])) }
    }

    /// Sends a slow request and cancels it with `cancel`; the completion must come on main, once.
    private func assertCancelled(
        client: APIClient? = nil, file: StaticString = #filePath, line: UInt = #line,
        by cancel: @escaping @Sendable (RequestHandle) -> Void
    ) async {
        let counter = Counter()
        let done = expectation(description: "completion")
        let handle = (client ?? self.client).send(GetItem()) { result in
            MainActorProbe.check(file: file, line: line)
            XCTAssertEqual(result.transportReason, .cancelled, file: file, line: line)
            counter.increment()
            done.fulfill()
        }
        cancel(handle)
        await fulfillment(of: [done], timeout: 10)
        try? await Task.sleep(nanoseconds: 400_000_000)
        XCTAssertEqual(counter.total, 1, file: file, line: line)
    }

    func testThatACancelFromABackgroundThreadCompletesOnMain() async {
        await assertCancelled { handle in DispatchQueue.global().async { handle.cancel() } }
    }

    func testThatACancelFromATimerCompletesOnMain() async {
        // A dispatch timer on a queue of its own, and a Foundation timer on the main run loop.
        await assertCancelled { handle in
            DispatchQueue(label: "cancel.timer").asyncAfter(deadline: .now() + 0.05) { handle.cancel() }
        }
        await assertCancelled { handle in
            DispatchQueue.main.async {
                _ = Timer.scheduledTimer(withTimeInterval: 0.05, repeats: false) { _ in handle.cancel() }
            }
        }
    }

    func testThatACancelFromTheTransportsThreadCompletesOnMain() async throws {
        for kind in TransportKind.available {
            let cancelling = CancellingTransport(inner: try kind.make())
            let client = makeClient { $0.transport = cancelling }
            await assertCancelled(client: client) { handle in cancelling.handle.withLock { $0 = handle } }
        }
    }

    @MainActor
    func testThatACancelOnMainCompletesAfterCancelReturned() async {
        let events = Locked<[String]>([])
        let done = expectation(description: "completion")
        let handle = client.send(GetItem()) { result in
            XCTAssertEqual(result.transportReason, .cancelled)
            events.withLock { $0.append("completion") }
            done.fulfill()
        }
        handle.cancel()
        events.withLock { $0.append("cancel returned") }
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(events.value, ["cancel returned", "completion"])
    }

    func testThatProgressRunsOnMain() async {
        server.route("/bytes") { _ in .response(status: 200, headers: [], body: Data(repeating: 7, count: 256 * 1024)) }
        let progressed = Locked(0)
        let done = expectation(description: "completion")
        client.send(
            Endpoint<Data>(path: "/bytes"),
            progress: { _ in
                MainActorProbe.check()
                progressed.withLock { $0 += 1 }
            },
            completion: { result in
                MainActorProbe.check()
                XCTAssertTrue(result.isSuccess)
                done.fulfill()
            })
        await fulfillment(of: [done], timeout: 10)
        XCTAssertGreaterThan(progressed.value, 0)
    }
}
