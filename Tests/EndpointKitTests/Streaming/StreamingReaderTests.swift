import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate form of a stream, a reader that falls behind (the transfer pauses), and a token
/// refresh before the stream opens.
final class StreamingReaderTests: LoopbackTestCase {
    @MainActor
    final class Listener: StreamingRequestDelegate {
        var events: [String] = []
        var onEnd: (() -> Void)?

        func request<Request: StreamingRequest>(_ request: Request, didReceive element: Request.Element) {
            events.append("line:\(element)")
        }

        func request<Request: APIRequest>(
            _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
        ) {
            events.append("end:\((value as? StreamSummary)?.bytesReceived ?? -1)")
            onEnd?()
        }

        func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {
            events.append("transport:\(error.reason)")
            onEnd?()
        }
    }

    @MainActor
    func testThatTheDelegateHearsEachElementThenTheEnd() async {
        server.route("/lines") { _ in .pieces(["a\n", "b\n"], delay: 0.01) }
        let listener = Listener()
        let done = expectation(description: "end")
        listener.onEnd = { done.fulfill() }
        client.stream(LineStream(), delegate: listener)
        await fulfillment(of: [done], timeout: 20)
        XCTAssertEqual(listener.events, ["line:a", "line:b", "end:4"])
    }

    @MainActor
    func testThatAStreamWhoseDelegateIsGoneIsCancelled() async {
        server.route("/lines") { _ in
            .streamed(status: 200, headers: []) { body in
                while body.send("line\n") { body.wait(0.005) }
            }
        }
        // The listener is released when this returns.
        let handle = { [client] in client!.stream(LineStream(), delegate: Listener()) }()
        // Waits without blocking the main queue, where the stream finds its delegate gone.
        let server = self.server!
        let deadline = Date(timeIntervalSinceNow: 10)
        while server.openConnectionCount > 0 || handle.isRunning, Date() < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(server.openConnectionCount, 0)
        XCTAssertEqual(handle.state, .cancelled)
    }

    func testThatAReaderThatFallsBehindHoldsTheServerBack() async throws {
        let sent = Locked(0)
        let piece = Data(repeating: 0x2A, count: 64 << 10)
        server.route("/bytes") { _ in
            .streamed(status: 200, headers: []) { body in
                while body.bytesSent < 1 << 30, body.send(piece) { sent.value = body.bytesSent }
            }
        }
        var iterator = client.stream(ChunkStream(bufferSize: 256 << 10)).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertNotNil(first)
        // The reader stops here: the buffer fills, the transfer pauses, the server's sends block.
        var last = -1
        var steady = 0
        let deadline = Date(timeIntervalSinceNow: 20)
        while steady < 5, Date() < deadline {
            try await Task.sleep(nanoseconds: 100_000_000)
            steady = sent.value == last ? steady + 1 : 0
            last = sent.value
        }
        XCTAssertLessThan(sent.value, 64 << 20, "the server was not held back")
        // Reading again resumes the transfer.
        let resumedFrom = sent.value
        var read = 0
        while sent.value < resumedFrom + (4 << 20), Date() < deadline, let chunk = try await iterator.next() {
            read += chunk.count
        }
        XCTAssertGreaterThan(sent.value, resumedFrom, "the transfer did not resume")
        XCTAssertGreaterThan(read, 0)
        _ = iterator  // dropped here: the transfer is cancelled
    }

    func testThatATokenRefreshHappensBeforeTheStreamOpens() async {
        let refreshes = Counter()
        let auth = AuthenticationInterceptor<String>(
            credential: "old",
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            refresh: { _ in
                refreshes.increment()
                return "new"
            })
        server.route("/lines") { request in
            request.header("Authorization") == "Bearer new"
                ? .pieces(["1\n", "2\n"]) : .json(["message": "expired"], status: 401)
        }
        let client = makeClient { $0.interceptors = [auth] }
        let collected = await collect(LineStream(), on: client)
        XCTAssertNil(collected.failure)
        XCTAssertEqual(collected.elements, ["1", "2"])
        XCTAssertEqual(refreshes.total, 1)
    }
}
