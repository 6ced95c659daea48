import Foundation

/// A fault a ``LinkImpairer`` injected into a connection.
enum LinkFault: Sendable {
    /// Both ends got a TCP RST.
    case reset
    /// Nothing was forwarded for a while.
    case stall
    /// Nothing is forwarded any more, and neither end is closed.
    case halfOpen
}

/// One connection forwarded by a ``LinkImpairer``: the client's socket, the server's, the two
/// ``LinkPump``s between them, and the faults scheduled for it.
///
/// Faults sit at byte positions drawn from the connection's own generator (seeded from the
/// impairer's seed and the connection's number): a pump forwards up to the next position, then
/// the fault happens. The sockets are closed by the last pump to finish, under the lock, so no
/// other thread ever shuts down a descriptor number that was closed and reused.
final class ImpairedLink: Sendable {
    /// Whether, and until when, the link forwards nothing.
    enum Hold: Sendable, Equatable {
        case none
        case until(ContinuousClock.Instant)
        case forever
    }

    private struct State: Sendable {
        var generator: SeededGenerator
        var carried = 0
        var nextReset = Int.max
        var nextStall = Int.max
        var nextHalfOpen = Int.max
        var hold = Hold.none
        var aborted = false
        var resetOnClose = false
        var closed = false
        var pumpsLeft = 2
    }

    let id: Int
    let clientFD: Int32
    let serverFD: Int32
    let profile: LinkProfile
    private let state: Locked<State>
    private let clock = ContinuousClock()
    /// Told of every fault and of the bytes forwarded (`true` for the upload direction).
    private let onEvent: @Sendable (LinkEvent) -> Void

    /// What a link reports to its impairer.
    enum LinkEvent: Sendable {
        case forwarded(bytes: Int, upload: Bool)
        case fault(LinkFault)
        case closed(id: Int)
    }

    init(
        id: Int, clientFD: Int32, serverFD: Int32, profile: LinkProfile, seed: UInt64,
        onEvent: @escaping @Sendable (LinkEvent) -> Void
    ) {
        self.id = id
        self.clientFD = clientFD
        self.serverFD = serverFD
        self.profile = profile
        self.onEvent = onEvent
        var generator = SeededGenerator(seed: seed)
        var initial = State(generator: generator)
        initial.nextReset = Self.position(after: 0, rate: profile.resetsPerMebibyte, &generator)
        initial.nextStall = Self.position(after: 0, rate: profile.stallsPerMebibyte, &generator)
        initial.nextHalfOpen = Self.position(after: 0, rate: profile.halfOpensPerMebibyte, &generator)
        initial.generator = generator
        state = Locked(initial)
    }

    /// The byte position of the next fault of a kind that happens `rate` times per MiB on
    /// average (exponentially distributed gaps), or `Int.max` for none.
    private static func position(after carried: Int, rate: Double, _ generator: inout SeededGenerator) -> Int {
        guard rate > 0 else { return .max }
        let uniform = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &generator)
        let gap = -log(uniform) * 1_048_576 / rate
        return carried + max(1, Int(min(gap, 1e15)))
    }

    /// A seed for one of the link's pumps, from the link's own sequence.
    func pumpSeed() -> UInt64 {
        state.withLock { $0.generator.next() }
    }

    // MARK: - What the pumps ask

    /// Whether the link was reset or stopped; the pumps end.
    var isAborted: Bool { state.withLock { $0.aborted } }

    /// The hold in force at `now` (an expired stall is lifted).
    func hold(at now: ContinuousClock.Instant) -> Hold {
        state.withLock { state in
            if case .until(let end) = state.hold, end <= now { state.hold = .none }
            return state.hold
        }
    }

    /// How many bytes may be forwarded before the next fault (at least 1 while none is due).
    var bytesBeforeNextFault: Int {
        state.withLock { min($0.nextReset, $0.nextStall, $0.nextHalfOpen) - $0.carried }
    }

    /// Counts `count` forwarded bytes and sets off the faults whose position they reach.
    func didForward(_ count: Int, upload: Bool) {
        onEvent(.forwarded(bytes: count, upload: upload))
        let faults: [LinkFault] = state.withLock { state in
            state.carried += count
            var faults: [LinkFault] = []
            if state.carried >= state.nextStall {
                let duration = Double.random(in: profile.stallDuration, using: &state.generator)
                state.nextStall = Self.position(
                    after: state.carried, rate: profile.stallsPerMebibyte, &state.generator)
                if state.hold == .none { state.hold = .until(clock.now.advanced(by: .seconds(duration))) }
                faults.append(.stall)
            }
            if state.carried >= state.nextHalfOpen {
                state.nextHalfOpen = .max
                state.hold = .forever
                faults.append(.halfOpen)
            }
            if state.carried >= state.nextReset {
                state.nextReset = .max
                faults.append(.reset)
            }
            return faults
        }
        for fault in faults {
            onEvent(.fault(fault))
            if case .reset = fault { abort(reset: true) }
        }
    }

    // MARK: - Faults asked for

    /// Resets both ends now.
    func reset() {
        onEvent(.fault(.reset))
        abort(reset: true)
    }

    /// Forwards nothing for `seconds` (a longer hold in force stays).
    func stall(for seconds: TimeInterval) {
        onEvent(.fault(.stall))
        state.withLock { state in
            let end = clock.now.advanced(by: .seconds(max(0, seconds)))
            switch state.hold {
            case .forever: break
            case .until(let current) where current >= end: break
            default: state.hold = .until(end)
            }
        }
    }

    /// Forwards nothing any more, without closing either end.
    func goHalfOpen() {
        onEvent(.fault(.halfOpen))
        state.withLock { $0.hold = .forever }
    }

    // MARK: - Ending

    /// Ends the link: the pumps stop at their next turn (woken by a shutdown of the receiving
    /// directions, which sends nothing); `reset` closes both ends with a TCP RST, otherwise an
    /// orderly close.
    func abort(reset: Bool) {
        state.withLock { state in
            guard !state.aborted else { return }
            state.aborted = true
            state.resetOnClose = state.resetOnClose || reset
            guard !state.closed else { return }
            Socket.shutdownRead(clientFD)
            Socket.shutdownRead(serverFD)
        }
    }

    /// Called by each pump when it ends; the last one closes both sockets.
    func pumpFinished() {
        let closed: Bool = state.withLock { state in
            state.pumpsLeft -= 1
            guard state.pumpsLeft == 0, !state.closed else { return false }
            state.closed = true
            if state.resetOnClose {
                Socket.resetOnClose(clientFD)
                Socket.resetOnClose(serverFD)
            }
            Socket.closeDescriptor(clientFD)
            Socket.closeDescriptor(serverFD)
            return true
        }
        if closed { onEvent(.closed(id: id)) }
    }
}
