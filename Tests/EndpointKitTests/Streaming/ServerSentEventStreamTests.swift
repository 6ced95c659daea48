import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Event streams over loopback: reconnection with `Last-Event-ID`, its limit, and how a stream
/// ends (204, a refused status, a first connection that fails).
final class ServerSentEventStreamTests: LoopbackTestCase {
    /// The `Last-Event-ID` of each request to `/events`, in order ("" when absent).
    private let lastEventIDs = Locked<[String]>([])

    /// Routes `/events` to `answer`, given the connection's number (from 0) and its `Last-Event-ID`.
    private func routeEvents(_ answer: @escaping @Sendable (Int, String?) -> TestResponse) {
        let seen = lastEventIDs
        server.route("/events") { request in
            let id = request.header("Last-Event-ID")
            let number = seen.withLock { ids -> Int in
                ids.append(id ?? "")
                return ids.count - 1
            }
            return answer(number, id)
        }
    }

    private static func events(_ text: String, cut: Bool = false) -> TestResponse {
        .pieces([text], contentType: "text/event-stream", cut: cut)
    }

    func testThatADroppedStreamReconnectsFromTheLastEventID() async {
        routeEvents { number, lastID in
            switch (number, lastID) {
            // Cut in the middle of event 3: it is not delivered, and 2 is where to resume.
            case (0, nil):
                return Self.events("retry: 10\nid: 1\ndata: one\n\nid: 2\ndata: two\n\nid: 3\ndata: thr", cut: true)
            // Closed normally after 4: an event stream reconnects then too.
            case (1, "2"): return Self.events("id: 3\ndata: three\n\nid: 4\ndata: four\n\n")
            case (2, "4"): return .status(204)
            default: return .text("unexpected \(number) \(lastID ?? "-")", status: 500)
            }
        }
        // The client's own wait is longer than the test: both reconnections wait the server's
        // 10 ms, which the second connection did not repeat.
        let collected = await collect(EventStream(reconnection: StreamReconnection(delay: 60)), on: client)
        XCTAssertEqual(collected.elements.map(\.data), ["one", "two", "three", "four"])
        XCTAssertEqual(collected.elements.map(\.id), ["1", "2", "3", "4"])
        XCTAssertEqual(lastEventIDs.value, ["", "2", "4"])
        // 204 No Content: the server's way to stop the stream.
        XCTAssertEqual(collected.serverFailure?.statusCode, 204)
    }

    func testThatReconnectsStopAtTheLimit() async {
        routeEvents { number, _ in Self.events("id: \(number)\ndata: \(number)\n\n", cut: true) }
        var request = EventStream()
        request.reconnection.maximumReconnects = 2
        let collected = await collect(request, on: client)
        XCTAssertEqual(collected.elements.map(\.data), ["0", "1", "2"])
        XCTAssertEqual(collected.transportReason, .connectionLost, "\(String(describing: collected.failure))")
        XCTAssertEqual(lastEventIDs.value, ["", "0", "1"])
    }

    func testThatARefusedReconnectionEndsTheStreamWithItsBody() async {
        routeEvents { number, _ in
            number == 0 ? Self.events("id: 1\ndata: one\n\n") : .json(["message": "gone"], status: 410)
        }
        let collected = await collect(EventStream(), on: client)
        XCTAssertEqual(collected.elements.map(\.data), ["one"])
        XCTAssertEqual(collected.serverFailure?.statusCode, 410)
        XCTAssertEqual(collected.serverFailure?.message, "gone")
        XCTAssertEqual(lastEventIDs.value.count, 2)
    }

    func testThatCancellingAStreamWaitingToReconnectEndsItAsCancelled() async {
        routeEvents { _, _ in Self.events("id: 1\ndata: one\n\n") }
        let client = self.client!
        let first = expectation(description: "first event")
        let task = Task { () -> Collected<ServerSentEvent> in
            var collected = Collected<ServerSentEvent>()
            do throws(APIFailure) {
                // The server closes after one event; the stream then waits 5 s to reconnect (once,
                // so that a cancel that is not heard ends the test, not hangs it).
                let reconnection = StreamReconnection(delay: 5, maximumReconnects: 1)
                for try await event in client.stream(EventStream(reconnection: reconnection)) {
                    collected.elements.append(event)
                    first.fulfill()
                }
            } catch {
                collected.failure = error
            }
            return collected
        }
        await fulfillment(of: [first], timeout: 10)
        try? await Task.sleep(nanoseconds: 50_000_000)
        task.cancel()
        let collected = await task.value
        XCTAssertEqual(collected.elements.map(\.data), ["one"])
        XCTAssertEqual(collected.transportReason, .cancelled, "\(String(describing: collected.failure))")
        XCTAssertEqual(lastEventIDs.value, [""], "no reconnection")
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatAFirstConnectionThatFailsDoesNotReconnect() async {
        routeEvents { _, _ in .close }
        let collected = await collect(EventStream(), on: client)
        XCTAssertEqual(collected.elements.count, 0)
        XCTAssertNotNil(collected.transportReason)
        XCTAssertEqual(lastEventIDs.value.count, 1)
    }

    func testThatA204OnTheFirstConnectionEndsTheStreamWithoutReconnecting() async {
        routeEvents { _, _ in .status(204) }
        let collected = await collect(EventStream(), on: client)
        XCTAssertEqual(collected.elements.count, 0)
        XCTAssertEqual(collected.serverFailure?.statusCode, 204)
        XCTAssertEqual(collected.serverFailure?.kind, .httpStatus)
        XCTAssertEqual(lastEventIDs.value, [""])
    }

    func testThatAnEventStreamAsksForEventsAndDataDecodesAsJSON() async {
        struct Tick: Decodable, Equatable { let n: Int }
        struct Ticks: StreamingRequest {
            var path: RequestPath { "/events" }
            var reconnection: StreamReconnection { .never }
            var format: StreamFormat<Tick> { .serverSentEvents { try $0.decodeData(as: Tick.self) } }
        }
        let accept = Locked<String?>(nil)
        server.route("/events") { request in
            accept.value = request.header("Accept")
            return Self.events("data: {\"n\":1}\n\n: keep-alive\n\ndata: {\"n\":2}\n\n")
        }
        let collected = await collect(Ticks(), on: client)
        XCTAssertEqual(collected.elements, [Tick(n: 1), Tick(n: 2)])
        XCTAssertNil(collected.failure)
        XCTAssertEqual(accept.value, "text/event-stream")
    }

    func testThatTheWaitGrowsWhileReconnectionsBringNothing() {
        let policy = StreamReconnection(delay: 1, backoffMultiplier: 2, maximumDelay: 5)
        XCTAssertEqual((0..<5).map { policy.wait(base: 1, quietReconnections: $0) }, [1, 2, 4, 5, 5])
        // The server's own reconnection time is the base, even above the maximum.
        XCTAssertEqual(policy.wait(base: 0.25, quietReconnections: 1), 0.5)
        XCTAssertEqual(policy.wait(base: 9, quietReconnections: 3), 9)
    }
}
