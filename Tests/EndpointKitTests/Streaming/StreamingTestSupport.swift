import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

// Streaming endpoints and helpers shared by the streaming tests.

struct LineStream: StreamingRequest {
    var path: RequestPath = "/lines"
    var bufferSize = 1 << 20
    var format: StreamFormat<String> { .lines }
}

struct ChunkStream: StreamingRequest {
    var path: RequestPath = "/bytes"
    var bufferSize = 1 << 20
    var format: StreamFormat<Data> { .chunks }
}

struct ItemStream: StreamingRequest {
    var path: RequestPath = "/items"
    var format: StreamFormat<Item> { .ndjson(Item.self) }
}

struct EventStream: StreamingRequest {
    var path: RequestPath = "/events"
    var reconnection = StreamReconnection(delay: 0.01)
    var format: StreamFormat<ServerSentEvent> { .serverSentEvents }
}

/// What an async loop over a stream collected, and how it ended.
struct Collected<Element: Sendable>: Sendable {
    var elements: [Element] = []
    var failure: APIFailure?

    var serverFailure: ServerFailure? { failure?.serverFailure }
    var transportReason: TransportError.Reason? { failure?.transportError?.reason }
}

extension XCTestCase {
    /// Iterates `request`'s stream on `client` until it ends, `limit` elements came, or
    /// `timeout` passes (then the Task is cancelled and the failure says so).
    func collect<Request: StreamingRequest>(
        _ request: Request, on client: APIClient, limit: Int = .max, timeout: TimeInterval = 20,
        onElement: (@Sendable (Request.Element) -> Void)? = nil
    ) async -> Collected<Request.Element> {
        await collect(client.stream(request), limit: limit, timeout: timeout, onElement: onElement)
    }

    /// Iterates `stream` once, as ``collect(_:on:limit:timeout:onElement:)`` does.
    func collect<Element: Sendable>(
        _ stream: ResponseStream<Element>, limit: Int = .max, timeout: TimeInterval = 20,
        onElement: (@Sendable (Element) -> Void)? = nil
    ) async -> Collected<Element> {
        let task = Task { () -> Collected<Element> in
            var collected = Collected<Element>()
            do throws(APIFailure) {
                for try await element in stream {
                    collected.elements.append(element)
                    onElement?(element)
                    if collected.elements.count >= limit { break }
                }
            } catch {
                collected.failure = error
            }
            return collected
        }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
            task.cancel()
        }
        let collected = await task.value
        watchdog.cancel()
        return collected
    }
}

extension TransportTestCase {
    /// Streams `request` through the closure API on `client`, waiting (bounded) for the completion.
    func streamAndWait<Request: StreamingRequest>(
        _ request: Request, timeout: TimeInterval = 60, onElement: (@Sendable (Request.Element) -> Void)? = nil
    ) -> (elements: [Request.Element], result: APIResult<StreamSummary>?) {
        let elements = Locked<[Request.Element]>([])
        let result = Locked<APIResult<StreamSummary>?>(nil)
        let done = expectation(description: "stream end")
        client.stream(
            request,
            onElement: { element in
                elements.withLock { $0.append(element) }
                onElement?(element)
            },
            completion: { outcome in
                result.value = outcome
                done.fulfill()
            })
        wait(for: [done], timeout: timeout)
        return (elements.value, result.value)
    }
}

extension TestResponse {
    /// A chunked 200 of `line 0`, `line 1`... sent `delay` seconds apart until the client goes away.
    static func endlessLines(every delay: TimeInterval) -> TestResponse {
        .streamed(status: 200, headers: []) { body in
            var index = 0
            while body.send("line \(index)\n") {
                index += 1
                body.wait(delay)
            }
        }
    }

    /// A chunked 200 of `pieces` sent `delay` seconds apart, optionally cut instead of ended.
    static func pieces(
        _ pieces: [String], contentType: String = "text/plain", delay: TimeInterval = 0, cut: Bool = false
    ) -> TestResponse {
        .streamed(status: 200, headers: [("Content-Type", contentType)]) { body in
            for (index, piece) in pieces.enumerated() {
                if index > 0, delay > 0, !body.wait(delay) { return }
                guard body.send(piece) else { return }
            }
            if cut { body.cut() }
        }
    }
}
