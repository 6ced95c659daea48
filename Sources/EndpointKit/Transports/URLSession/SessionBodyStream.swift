import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body ``SessionTransfer`` streams to the request's ``ResponseBodySink``.
///
/// URLSession hands over bytes it has already read, so what the sink refuses waits here, in
/// order, and goes first when the sink asks to resume. On Apple platforms the task is suspended
/// meanwhile (it stops reading; TCP holds the server back). On Linux `suspend()` removes the
/// transfer from libcurl and `resume()` sends the request again from the start (seen with
/// swift-corelibs-foundation 6.3), so the task keeps running and the backlog is capped at the
/// request's size limit: past it the transfer fails, naming the reason.
final class SessionBodyStream: Sendable {
    private struct State {
        var isOpen = false
        var isPaused = false
        var isClosed = false
        /// Refused bytes in arrival order, from `head` on.
        var pending: [Data] = []
        var head = 0
        var pendingBytes = 0
        var task: URLSessionTask?
        /// What runs once the backlog is empty (the transfer's completion).
        var whenDrained: (@Sendable () -> Void)?
    }

    private let sink: any ResponseBodySink
    private let limit: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - sink: Where the body goes.
    ///   - limit: The most refused bytes kept where the task cannot be suspended.
    init(sink: any ResponseBodySink, limit: Int) {
        self.sink = sink
        self.limit = limit
    }

    /// Whether the sink took the response's body.
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Offers the response to the sink; `task` is suspended and resumed for it.
    /// - Returns: Whether the body is streamed (otherwise the transfer collects it).
    func open(_ response: HTTPURLResponse, task: URLSessionTask?) -> Bool {
        let accepted = sink.begin(response) { [weak self] in self?.resume() }
        state.withLock { state in
            state.isOpen = accepted
            state.task = task
        }
        return accepted
    }

    /// Hands bytes to the sink, or keeps them while it is full.
    /// - Returns: A failure that ends the transfer: the backlog passed the limit (Linux).
    func receive(_ data: Data) -> TransportError? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            if !state.isPaused {
                if data.withUnsafeBytes({ sink.receive($0) }) { return nil }
                state.isPaused = true
                #if !canImport(FoundationNetworking)
                state.task?.suspend()
                #endif
            }
            state.pending.append(data)
            state.pendingBytes += data.count
            guard state.pendingBytes <= limit else {
                return TransportError(
                    .responseTooLarge(limit: limit),
                    message: "The reader fell more than \(limit) bytes behind the stream, and URLSession on Linux "
                        + "cannot pause a transfer (CurlTransport can).")
            }
            return nil
        }
    }

    /// The sink has room again: what waits goes first, then the task reads on.
    private func resume() {
        var drained: (@Sendable () -> Void)?
        state.withLock { state in
            guard !state.isClosed, state.isPaused else { return }
            while state.head < state.pending.count {
                let data = state.pending[state.head]
                // Refused again: the sink asks once more when it has room.
                guard data.withUnsafeBytes({ sink.receive($0) }) else { return }
                state.pending[state.head] = Data()
                state.head += 1
                state.pendingBytes -= data.count
            }
            state.pending.removeAll(keepingCapacity: true)
            state.head = 0
            state.isPaused = false
            #if !canImport(FoundationNetworking)
            state.task?.resume()
            #endif
            drained = state.whenDrained
            state.whenDrained = nil
        }
        drained?()
    }

    /// Runs `action` once the sink has taken every byte it refused: now, or when it resumes.
    func whenDrained(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.isPaused, !state.isClosed else { return true }
            state.whenDrained = action
            return false
        }
        if now { action() }
    }

    /// The transfer ended: nothing more goes to the sink.
    func close() {
        state.withLock { state in
            state.isClosed = true
            state.pending = []
            state.task = nil
            state.whenDrained = nil
        }
    }
}
