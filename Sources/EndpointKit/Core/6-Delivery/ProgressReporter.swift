import Dispatch
import Foundation

/// Publishes one request's transfer progress three ways (a closure, a Foundation `Progress`, and
/// async sequences), never going backwards and ending at 1.0 on success.
final class ProgressReporter: Sendable {
    private struct State {
        var last = TransferProgress()
        var lastFraction = 0.0
        /// Told each value under the lock, so values keep their order: it only schedules its work.
        var handler: (@Sendable (TransferProgress) -> Void)?
        var streams: [UUID: AsyncStream<TransferProgress>.Continuation] = [:]
        var isClosed = false
        /// Made on first use: most requests never ask for one, and making it costs ~1% of a request.
        var foundationProgress: Progress?
    }

    private let state = Locked(State())

    /// A Foundation progress tracking the fraction completed, in millionths, made on first use.
    var progress: Progress {
        state.withLock { state in
            if let existing = state.foundationProgress { return existing }
            let progress = Progress(totalUnitCount: 1_000_000)
            progress.isCancellable = false
            progress.completedUnitCount = Int64(state.lastFraction * 1_000_000)
            state.foundationProgress = progress
            return progress
        }
    }

    /// Sets the closure told each value; it must hop to where it runs (it is called under the lock).
    func setHandler(_ closure: @escaping @Sendable (TransferProgress) -> Void) {
        state.withLock { $0.handler = closure }
    }

    /// A new sequence of progress values from now on (starting with the latest), ending when the
    /// request completes.
    func updates() -> AsyncStream<TransferProgress> {
        let (stream, continuation) = AsyncStream<TransferProgress>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        let (closed, latest) = state.withLock { state -> (Bool, TransferProgress) in
            if !state.isClosed { state.streams[id] = continuation }
            return (state.isClosed, state.last)
        }
        continuation.yield(latest)
        if closed { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes a value unless it would go backwards.
    func report(_ value: TransferProgress) {
        publish { state in
            guard value.bytesSent >= state.last.bytesSent, value.bytesReceived >= state.last.bytesReceived else {
                return nil
            }
            let fraction = value.fractionCompleted ?? state.lastFraction
            guard fraction >= state.lastFraction else { return nil }
            state.lastFraction = fraction
            state.last = value
            return value
        }
    }

    /// Publishes the final value of a successful request (fraction 1) and ends the sequences.
    func complete(succeeded: Bool) {
        if succeeded {
            publish { state in
                var final = state.last
                final.isFinished = true
                if let total = final.totalBytesToReceive, final.bytesReceived < total { final.bytesReceived = total }
                state.last = final
                state.lastFraction = 1
                return final
            }
        }
        let streams = state.withLock { state -> [AsyncStream<TransferProgress>.Continuation] in
            state.isClosed = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }

    private func publish(_ update: (inout State) -> TransferProgress?) {
        let delivery = state.withLock {
            state -> (TransferProgress, [AsyncStream<TransferProgress>.Continuation], Progress?)? in
            guard !state.isClosed, let value = update(&state) else { return nil }
            state.handler?(value)
            return (value, state.streams.isEmpty ? [] : Array(state.streams.values), state.foundationProgress)
        }
        guard let (value, streams, progress) = delivery else { return }
        if let progress, let fraction = value.fractionCompleted {
            progress.completedUnitCount = Int64(fraction * 1_000_000)
        }
        for stream in streams { stream.yield(value) }
    }
}
