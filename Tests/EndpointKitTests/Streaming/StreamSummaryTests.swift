import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ResponseStream.summary` over loopback: what an async loop learns once it is over, however the
/// stream ended (normally, cut, cancelled, left, stopped by a 204), and that a new iteration
/// clears it.
final class StreamSummaryTests: LoopbackTestCase {
    /// Iterates `stream` once (bounded); `during` is `stream.summary` as seen inside the loop, at
    /// each element.
    private func iterate<Element: Sendable>(
        _ stream: ResponseStream<Element>, limit: Int = .max
    ) async -> (collected: Collected<Element>, during: [StreamSummary?]) {
        let during = Locked<[StreamSummary?]>([])
        let collected = await collect(stream, limit: limit) { _ in during.withLock { $0.append(stream.summary) } }
        return (collected, during.value)
    }

    func testThatANormalEndLeavesTheSummary() async {
        server.route("/lines") { _ in .pieces(["a\nb", "\nc\n"], delay: 0.01) }
        let stream = client.stream(LineStream())
        XCTAssertNil(stream.summary, "nothing before the loop")
        let (collected, during) = await iterate(stream)
        XCTAssertNil(collected.failure)
        XCTAssertEqual(collected.elements, ["a", "b", "c"])
        XCTAssertEqual(during.count, 3)
        XCTAssertTrue(during.allSatisfy { $0 == nil }, "nothing while the loop runs: \(during)")
        XCTAssertEqual(stream.summary, StreamSummary(bytesReceived: 6, reconnects: 0, lastEventID: ""))
    }

    func testThatACutConnectionLeavesTheSummaryOfWhatCame() async {
        server.route("/lines") { _ in .pieces(["one\n", "two\n"], delay: 0.01, cut: true) }
        let stream = client.stream(LineStream())
        let (collected, _) = await iterate(stream)
        XCTAssertEqual(collected.elements, ["one", "two"])
        XCTAssertEqual(collected.transportReason, .connectionLost, "\(String(describing: collected.failure))")
        XCTAssertEqual(stream.summary?.bytesReceived, 8)
    }

    func testThatACancelledTaskLeavesTheSummary() async {
        server.route("/lines") { _ in
            .streamed(status: 200, headers: []) { body in
                body.send("first\n")
                body.wait(30)
            }
        }
        let stream = client.stream(LineStream())
        // The Task the loop runs in is cancelled once the first line came.
        let collected = await collect(stream) { _ in withUnsafeCurrentTask { $0?.cancel() } }
        XCTAssertEqual(collected.elements, ["first"])
        XCTAssertEqual(collected.transportReason, .cancelled, "\(String(describing: collected.failure))")
        XCTAssertEqual(stream.summary?.bytesReceived, 6)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
    }

    func testThatALeftLoopLeavesTheSummary() async {
        server.route("/lines") { _ in .endlessLines(every: 0.005) }
        let stream = client.stream(LineStream())
        let (collected, _) = await iterate(stream, limit: 3)
        XCTAssertEqual(collected.elements, ["line 0", "line 1", "line 2"])
        XCTAssertNil(collected.failure)
        let bytes = stream.summary?.bytesReceived ?? 0
        XCTAssertGreaterThanOrEqual(bytes, 21, "at least the three lines the loop saw")
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
    }

    func testThatAnEventStreamStoppedBy204KeepsItsReconnectsAndLastEventID() async {
        let connections = Counter()
        server.route("/events") { request in
            connections.increment()
            switch connections.total {
            case 1: return .pieces(["id: 1\ndata: one\n\nid: 2\ndata: two\n\n"], contentType: "text/event-stream")
            case 2 where request.header("Last-Event-ID") == "2":
                return .pieces(["id: 3\ndata: three\n\n"], contentType: "text/event-stream")
            case 3: return .status(204)
            default: return .text("unexpected", status: 500)
            }
        }
        let stream = client.stream(EventStream())
        let (collected, _) = await iterate(stream)
        XCTAssertEqual(collected.elements.map(\.data), ["one", "two", "three"])
        XCTAssertEqual(collected.serverFailure?.statusCode, 204, "\(String(describing: collected.failure))")
        XCTAssertEqual(stream.summary?.reconnects, 2)
        XCTAssertEqual(stream.summary?.lastEventID, "3")
    }

    func testThatAnEventStreamTheServerClosesAtTheLimitEndsWithoutThrowing() async {
        let connections = Counter()
        server.route("/events") { _ in
            connections.increment()
            let number = connections.total
            return .pieces(["id: \(number)\ndata: \(number)\n\n"], contentType: "text/event-stream")
        }
        var request = EventStream()
        request.reconnection.maximumReconnects = 1
        let stream = client.stream(request)
        let (collected, _) = await iterate(stream)
        XCTAssertEqual(collected.elements.map(\.data), ["1", "2"])
        XCTAssertNil(collected.failure, "closed normally with no reconnection left: a success")
        XCTAssertEqual(connections.total, 2)
        XCTAssertEqual(stream.summary?.reconnects, 1)
        XCTAssertEqual(stream.summary?.lastEventID, "2")
    }

    func testThatEachIterationHasItsOwnSummary() async {
        let connections = Counter()
        server.route("/lines") { _ in
            connections.increment()
            return connections.total == 1 ? .pieces(["a\n"]) : .pieces(["bb\n", "cc\n"], delay: 0.01)
        }
        let stream = client.stream(LineStream())
        _ = await iterate(stream)
        XCTAssertEqual(stream.summary?.bytesReceived, 2)
        let (second, during) = await iterate(stream)
        XCTAssertEqual(second.elements, ["bb", "cc"])
        XCTAssertEqual(during, [nil, nil], "the first iteration's summary is cleared when the second begins")
        XCTAssertEqual(stream.summary?.bytesReceived, 6)
    }
}
