@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The streaming half of the transport contract: a ``ResponseBodySink`` gets an accepted body as
/// it arrives, refused bytes come again in order after `resume`, and a full sink holds the server
/// back (URLSession on Linux cannot pause: it fails once the backlog passes the size cap).
extension TransportConformanceTests {
    /// Starts a transfer whose body goes to `sink`; `finished` is fulfilled with its completion.
    private func start(
        _ path: String, into sink: TestBodySink, limit: Int = 1 << 26, timeouts: Timeouts = Timeouts(total: 30),
        finished: XCTestExpectation
    ) -> (task: any TransportTask, result: Locked<Result<TransportResponse, TransportError>?>) {
        var request = TransportRequest(
            urlRequest: URLRequest(url: server.url(path)), timeouts: timeouts, maximumResponseSize: limit)
        request.bodySink = sink
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        let task = transport.execute(request) { result in
            box.value = result
            finished.fulfill()
        }
        return (task, box)
    }

    /// Serves `total` pattern bytes as a chunked stream of `piece`-byte chunks; `sent` follows the
    /// bytes the server got out.
    private func routePattern(_ path: String, total: Int, piece: Int = 64 << 10, sent: Locked<Int>? = nil) {
        let bytes = TestServer.patternBytes(count: min(total, 8 << 20))
        server.route(path) { _ in
            .streamed(status: 200, headers: [("Content-Type", "application/octet-stream")]) { body in
                var offset = 0
                while offset < total {
                    let length = min(piece, total - offset)
                    let start = offset % bytes.count
                    let chunk = bytes[start..<min(start + length, bytes.count)]
                    guard body.send(Data(chunk)) else { return }
                    offset += chunk.count
                    sent?.value = body.bytesSent
                }
            }
        }
    }

    private var cannotPause: Bool {
        #if canImport(FoundationNetworking)
        return kind.name == TransportKind.urlSession.name
        #else
        return false
        #endif
    }

    func testThatABodySinkGetsTheBodyAsItArrives() throws {
        try forEachTransport {
            let firstArrived = DispatchSemaphore(value: 0)
            server.route("/feed") { _ in
                .streamed(status: 200, headers: [("Content-Type", "text/plain")]) { body in
                    body.send("first\n")
                    // The rest waits for the client to have the first line: a transport that
                    // collected the body before handing it over would never finish.
                    guard firstArrived.wait(timeout: .now() + 10) == .success else { return }
                    body.send("second\n")
                }
            }
            let sink = TestBodySink { taken in
                if taken.starts(with: Data("first\n".utf8)) { firstArrived.signal() }
            }
            let finished = expectation(description: "completion")
            let transfer = start("/feed", into: sink, finished: finished)
            wait(for: [finished], timeout: 20)
            let response = try XCTUnwrap(transfer.result.value).get()
            XCTAssertEqual(response.response.statusCode, 200)
            XCTAssertEqual(response.data.count, 0)
            XCTAssertEqual(String(decoding: sink.received, as: UTF8.self), "first\nsecond\n")
        }
    }

    func testThatABodyTheSinkDeclinesIsCollected() throws {
        try forEachTransport {
            server.route("/feed") { _ in .json(["message": "busy"], status: 503) }
            let sink = TestBodySink()
            let finished = expectation(description: "completion")
            let transfer = start("/feed", into: sink, finished: finished)
            wait(for: [finished], timeout: 20)
            let response = try XCTUnwrap(transfer.result.value).get()
            XCTAssertEqual(sink.status, 503)
            XCTAssertEqual(sink.received.count, 0)
            XCTAssertEqual(String(decoding: response.data, as: UTF8.self), #"{"message":"busy"}"#)
        }
    }

    func testThatRefusedBytesComeAgainInOrderAfterResume() throws {
        try forEachTransport {
            let total = 4 << 20
            routePattern("/bytes", total: total)
            let sink = TestBodySink(capacity: 256 << 10)
            let finished = expectation(description: "completion")
            let transfer = start("/bytes", into: sink, finished: finished)
            // A slow reader on another thread: takes what the sink holds only after it refused
            // bytes, so that every round goes through a pause and a resume.
            let reading = Locked(true)
            let reader = Thread {
                let deadline = Date(timeIntervalSinceNow: 20)
                var refusals = 0
                while reading.value, Date() < deadline {
                    if sink.refusals > refusals {
                        refusals = sink.refusals
                        sink.drain()
                    }
                    usleep(500)
                }
            }
            reader.start()
            wait(for: [finished], timeout: 30)
            reading.value = false
            XCTAssertNoThrow(try XCTUnwrap(transfer.result.value).get())
            XCTAssertGreaterThan(sink.refusals, 0, "the reader was never behind")
            XCTAssertEqual(sink.received.count, total)
            XCTAssertTrue(sink.received == TestServer.patternBytes(count: total), "bytes lost, repeated or reordered")
        }
    }

    func testThatAFullSinkHoldsTheServerBack() throws {
        try forEachTransport {
            let sent = Locked(0)
            routePattern("/endless", total: 1 << 30, sent: sent)
            let limit = 8 << 20
            let sink = TestBodySink(capacity: 1 << 20)
            let finished = expectation(description: "completion")
            let transfer = start("/endless", into: sink, limit: limit, finished: finished)
            // Until the server gets no further (its sends block) or the transfer ends.
            var last = -1
            var steady = 0
            let deadline = Date(timeIntervalSinceNow: 20)
            while steady < 5, transfer.result.value == nil, Date() < deadline {
                usleep(100_000)
                let now = sent.value
                steady = now == last ? steady + 1 : 0
                last = now
            }
            if cannotPause {
                wait(for: [finished], timeout: 20)
                XCTAssertEqual(transfer.result.value?.failureReason, .responseTooLarge(limit: limit))
                return
            }
            XCTAssertNil(transfer.result.value, "the transfer ended while paused")
            XCTAssertLessThan(sent.value, 64 << 20, "the server was not held back")
            XCTAssertGreaterThan(sink.refusals, 0)
            XCTAssertLessThanOrEqual(sink.heldCount, (1 << 20) + (256 << 10))
            transfer.task.cancel()
            wait(for: [finished], timeout: 10)
            XCTAssertEqual(transfer.result.value?.failureReason, .cancelled)
            XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        }
    }

    func testThatAPausedTransferDoesNotRunIntoItsIdleLimit() throws {
        try forEachTransport {
            let total = 2 << 20
            routePattern("/bytes", total: total)
            let sink = TestBodySink(capacity: 256 << 10)
            let finished = expectation(description: "completion")
            let transfer = start(
                "/bytes", into: sink, timeouts: Timeouts(idle: 0.5, total: 30), finished: finished)
            // Paused (full sink) for three idle limits: the reader's wait, not the network's.
            Thread.sleep(forTimeInterval: 1.5)
            XCTAssertNil(transfer.result.value)
            let reader = Thread {
                let deadline = Date(timeIntervalSinceNow: 20)
                while transfer.result.value == nil, Date() < deadline {
                    sink.drain()
                    usleep(1000)
                }
            }
            reader.start()
            wait(for: [finished], timeout: 30)
            XCTAssertNoThrow(try XCTUnwrap(transfer.result.value).get())
            XCTAssertEqual(sink.received.count, total)
        }
    }
}
