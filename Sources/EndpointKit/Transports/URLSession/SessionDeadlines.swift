import Dispatch
import Foundation

/// The time limits URLSession does not enforce for ``URLSessionTransport`` (the total deadline,
/// and the connect limit until the server is first heard from), for every transfer, kept by one
/// timer.
///
/// A timer per transfer and limit costs a dispatch source made, scheduled and cancelled for
/// every request (with the connect limit's default of 30 s, every request has one): about 7 k
/// instructions a request, counted with callgrind. Here arming and disarming a limit is a table
/// entry under a lock. The one timer is scheduled
/// for the earliest deadline when an earlier one is armed; a disarmed limit leaves it where it
/// is, and when it fires it ends the transfers whose deadline has passed and schedules itself for
/// the next one left.
final class SessionDeadlines: @unchecked Sendable {
    /// The keeper every transfer uses.
    static let shared = SessionDeadlines()

    private struct Key: Hashable {
        let transfer: ObjectIdentifier
        let limit: Timeouts.Limit
    }

    private struct Entry {
        /// When the limit runs out, in `DispatchTime` nanoseconds.
        let deadline: UInt64
        /// The limit as set, for the error's message.
        let seconds: TimeInterval
        /// Weak: a transfer that ended unseen is not kept alive by its limit.
        weak var transfer: SessionTransfer?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// When the timer is scheduled to fire; `nil` when it is not scheduled.
        var firesAt: UInt64?
    }

    private let state = Locked(State())
    /// Scheduled only under `state`'s lock, so that schedules happen in the order they were
    /// decided. `@unchecked Sendable` because of it: the timer is a dispatch source, which is
    /// safe to schedule from any thread.
    private let timer: any DispatchSourceTimer

    private init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "EndpointKit.deadlines"))
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.resume()
    }

    /// Ends `transfer` with a `limit` time-out `seconds` from now, unless disarmed first.
    func arm(_ transfer: SessionTransfer, _ limit: Timeouts.Limit, after seconds: TimeInterval) {
        let deadline = DispatchTime.now().uptimeNanoseconds &+ Timeouts.nanoseconds(seconds)
        state.withLock { state in
            state.entries[Key(transfer: ObjectIdentifier(transfer), limit: limit)] = Entry(
                deadline: deadline, seconds: seconds, transfer: transfer)
            if let firesAt = state.firesAt, firesAt <= deadline { return }
            state.firesAt = deadline
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
        }
    }

    /// Forgets `transfer`'s `limit` (the transfer ended, or heard from the server).
    func disarm(_ transfer: SessionTransfer, _ limit: Timeouts.Limit) {
        _ = state.withLock { $0.entries.removeValue(forKey: Key(transfer: ObjectIdentifier(transfer), limit: limit)) }
    }

    /// Ends the transfers whose deadline has passed and schedules the next one left.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let expired = state.withLock { state -> [(limit: Timeouts.Limit, entry: Entry)] in
            var expired: [(limit: Timeouts.Limit, entry: Entry)] = []
            var next: UInt64?
            // Kept: the limits still running (of transfers still alive).
            state.entries = state.entries.filter { key, entry in
                guard entry.transfer != nil else { return false }
                guard entry.deadline > now else {
                    expired.append((key.limit, entry))
                    return false
                }
                next = min(next ?? entry.deadline, entry.deadline)
                return true
            }
            state.firesAt = next
            if let next { timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
            return expired
        }
        // Outside the lock: failing a transfer completes it, and its completion may send again.
        for (limit, entry) in expired {
            entry.transfer?.timeLimitPassed(limit, after: entry.seconds)
        }
    }
}
