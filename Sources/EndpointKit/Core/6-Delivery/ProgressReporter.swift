import Foundation

/// Publishes one request's transfer progress to the send's `progress:` closure, never going
/// backwards and ending at 1.0 on success.
final class ProgressReporter: Sendable {
    private struct State {
        var last = TransferProgress()
        var lastFraction = 0.0
        /// Told each value under the lock, so values keep their order: it only schedules its work.
        var handler: (@Sendable (TransferProgress) -> Void)?
        var isClosed = false
    }

    private let state = Locked(State())

    /// Sets the closure told each value; it must hop to where it runs (it is called under the lock).
    func setHandler(_ closure: @escaping @Sendable (TransferProgress) -> Void) {
        state.withLock { $0.handler = closure }
    }

    /// Publishes a value unless it would go backwards.
    func report(_ value: TransferProgress) {
        publish { state in
            guard value.bytesSent >= state.last.bytesSent, value.bytesReceived >= state.last.bytesReceived else {
                return false
            }
            let fraction = value.fractionCompleted ?? state.lastFraction
            guard fraction >= state.lastFraction else { return false }
            state.lastFraction = fraction
            state.last = value
            return true
        }
    }

    /// Publishes the final value of a successful request (fraction 1); nothing is published after.
    func complete(succeeded: Bool) {
        if succeeded {
            publish { state in
                state.last.isFinished = true
                if let total = state.last.totalBytesToReceive, state.last.bytesReceived < total {
                    state.last.bytesReceived = total
                }
                state.lastFraction = 1
                return true
            }
        }
        state.withLock { $0.isClosed = true }
    }

    private func publish(_ update: (inout State) -> Bool) {
        state.withLock { state in
            guard !state.isClosed, update(&state) else { return }
            state.handler?(state.last)
        }
    }
}
