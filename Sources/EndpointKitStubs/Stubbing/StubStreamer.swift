@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Plays a stubbed stream (``StubResponse/stream(_:status:headers:endingWith:)``) to a request:
/// the head after the stub's delay, then each piece after its own, to the request's body sink
/// when it accepts the response (a refused piece waits for the sink's resume), or all at once
/// as the collected body otherwise. The request's idle and total timeouts apply; a cancel ends
/// it at once (through the ``CompletionTask``).
///
/// Everything happens on one serial queue.
final class StubStreamer: @unchecked Sendable {
    private let task: CompletionTask
    private let request: TransportRequest
    private let status: Int
    private let headers: HTTPHeaders
    private let chunks: [StubStreamChunk]
    private let ending: TransportError.Reason?
    /// The answer when the body is not streamed.
    private let collected: @Sendable () -> Result<TransportResponse, TransportError>
    private let queue = DispatchQueue(label: "EndpointKitTesting.StubStreamer")
    // Queue only.
    private var response: HTTPURLResponse?
    private var next = 0
    private var isPaused = false

    init(
        task: CompletionTask, request: TransportRequest, status: Int, headers: HTTPHeaders,
        chunks: [StubStreamChunk], ending: TransportError.Reason?,
        collected: @escaping @Sendable () -> Result<TransportResponse, TransportError>
    ) {
        self.collected = collected
        self.task = task
        self.request = request
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.ending = ending
    }

    /// Starts playing after `delay` seconds.
    func start(after delay: TimeInterval) {
        if let total = request.timeouts.total, total > 0 {
            queue.asyncAfter(deadline: .now() + total) { [task] in
                task.finish(.failure(.timedOut(.total, after: total, url: self.request.urlRequest.url)))
            }
        }
        wait(delay) { [self] in open() }
    }

    /// Runs `action` after `seconds`, unless the idle limit runs out first (a silent stub).
    private func wait(_ seconds: TimeInterval, then action: @escaping @Sendable () -> Void) {
        let idle = request.timeouts.idle
        if idle > 0, idle <= seconds {
            queue.asyncAfter(deadline: .now() + idle) { [self] in
                task.finish(.failure(.timedOut(.idle, after: idle, url: request.urlRequest.url)))
            }
            return
        }
        queue.asyncAfter(deadline: .now() + seconds, execute: action)
    }

    private func open() {
        guard task.isRunning else { return }
        var fields = headers.dictionary
        fields["Transfer-Encoding"] = fields["Transfer-Encoding"] ?? "chunked"
        guard let url = request.urlRequest.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
        else {
            task.finish(.failure(TransportError(.badResponse, message: "Could not build the stubbed stream's head.")))
            return
        }
        let accepted = request.bodySink?.begin(response) { [weak self] in self?.resume() } ?? false
        guard accepted else {
            // Not streamed: the whole body, once its last piece is due.
            wait(chunks.reduce(0) { $0 + $1.delay }) { [self] in task.finish(collected()) }
            return
        }
        self.response = response
        scheduleNext()
    }

    private func scheduleNext() {
        guard task.isRunning else { return }
        guard next < chunks.count else {
            if let ending {
                task.finish(.failure(TransportError(ending, message: "The stubbed stream ended with \(ending).")))
            } else if let response {
                task.finish(.success(TransportResponse(response: response, data: Data())))
            }
            return
        }
        wait(chunks[next].delay) { [self] in deliver() }
    }

    private func deliver() {
        guard task.isRunning, let sink = request.bodySink else { return }
        let taken = chunks[next].data.withUnsafeBytes { sink.receive($0) }
        guard taken else {
            isPaused = true
            return
        }
        next += 1
        scheduleNext()
    }

    private func resume() {
        queue.async { [self] in
            guard isPaused else { return }
            isPaused = false
            deliver()
        }
    }
}
