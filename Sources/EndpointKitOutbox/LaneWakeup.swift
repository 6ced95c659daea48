import Dispatch
import EndpointKit

/// How a lane waits between attempts: for a time, and, after a failure for want of a network,
/// also until the connectivity monitor sees the network come back. The network's return while the
/// lane is busy is remembered for its next wait, so it is not missed.
final class LaneWakeup: Sendable {
    private struct Waiter {
        let id: UInt64
        let wakesOnNetwork: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var networkCameBack = false
        var waiter: Waiter?
        var nextID: UInt64 = 0
        var cancelled = false
    }

    private let state = Locked(State())

    /// The network is back: ends a wait that ends on it, or is remembered for the next one.
    func networkIsBack() {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter, waiter.wakesOnNetwork {
                state.waiter = nil
                return waiter.continuation
            }
            state.networkCameBack = true
            return nil
        }
        woken?.resume()
    }

    /// Returns after `seconds`, when the calling Task is cancelled, or, if `wakesOnNetwork`, when
    /// the network comes back (or came back since the last such wait).
    func wait(seconds: Double, wakesOnNetwork: Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let id = state.withLock { state -> UInt64? in
                    if state.cancelled { return nil }
                    if wakesOnNetwork, state.networkCameBack {
                        state.networkCameBack = false
                        return nil
                    }
                    state.nextID += 1
                    state.waiter = Waiter(id: state.nextID, wakesOnNetwork: wakesOnNetwork, continuation: continuation)
                    return state.nextID
                }
                guard let id else { return continuation.resume() }
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) { [self] in end(id) }
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
