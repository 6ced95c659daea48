import Dispatch

/// What wakes a lane that waits: an entry to send, or the network coming back. A lane waits for
/// some of these at a time (a backoff after a server's answer ignores the network); a signal
/// that comes while it is busy is remembered for its next wait, so none is lost.
final class LaneSignal: Sendable {
    struct Reasons: OptionSet, Sendable {
        let rawValue: UInt8
        /// An entry was enqueued, or a dead letter put back.
        static let entry = Reasons(rawValue: 1 << 0)
        /// The connectivity monitor reports a network again.
        static let online = Reasons(rawValue: 1 << 1)
    }

    private struct Waiter {
        let id: UInt64
        let accepts: Reasons
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var pending: Reasons = []
        var waiter: Waiter?
        var nextID: UInt64 = 0
        var cancelled = false
    }

    private let state = Locked(State())

    /// Wakes the wait in progress if it accepts one of `reasons`; otherwise remembers them.
    func signal(_ reasons: Reasons) {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter, !waiter.accepts.isDisjoint(with: reasons) {
                state.waiter = nil
                return waiter.continuation
            }
            state.pending.formUnion(reasons)
            return nil
        }
        woken?.resume()
    }

    /// Returns when one of `reasons` is signalled (or was while nobody waited), after `timeout`
    /// seconds when given, or when the calling Task is cancelled.
    func wait(for reasons: Reasons, timeout: Double?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let id = state.withLock { state -> UInt64? in
                    if state.cancelled { return nil }
                    if !state.pending.isDisjoint(with: reasons) {
                        state.pending.subtract(reasons)
                        return nil
                    }
                    state.nextID += 1
                    state.waiter = Waiter(id: state.nextID, accepts: reasons, continuation: continuation)
                    return state.nextID
                }
                guard let id else { return continuation.resume() }
                if let timeout {
                    DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [self] in end(id) }
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.continuation.resume()
        }
    }

    /// Ends wait `id` if it is still the one in progress.
    private func end(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter, waiter.id == id else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume()
    }
}
