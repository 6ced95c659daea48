import Dispatch

/// Runs the processing of one awaited request on the awaiting task itself.
///
/// An `async` caller is suspended while its request is in flight. If the transport's completion
/// processed the response on the client's processing queue and then resumed the caller, each
/// response would cross two threads (transport -> processing queue -> caller), and on a shared
/// machine a thread wake-up costs about as much CPU as libcurl's whole transfer. Instead the
/// completion posts the processing here and the caller, resumed once, runs it itself: validation,
/// envelope, decoding and delivery happen on the caller's task, one thread crossing per response.
///
/// Work posted before ``finish(storing:)`` runs first, in order; work posted after the caller returned
/// (a late completion of a cancelled request) runs on `fallback`, so nothing posted is dropped.
///
/// Not generic: the result is stored by the closure given to ``finish(storing:)`` where the
/// awaiting function keeps it, so no generic metadata is looked up for the caller's response type
/// here. A structure, whose copies share the one object behind `Locked`: an awaited send makes
/// that object only, not a second one around it.
struct AwaitingCaller: Sendable {
    private struct State {
        /// The next work; `more` holds what comes after it (one piece of work is the usual case,
        /// and needs no array).
        var next: (@Sendable () -> Void)?
        var more: [@Sendable () -> Void] = []
        var isFinished = false
        /// Whether ``finish(storing:)`` stored the result.
        var hasResult = false
        var waiter: UnsafeContinuation<Void, Never>?
        var isClosed = false
    }

    private let state = Locked(State())
    private let fallback: DispatchQueue

    /// - Parameter fallback: Where work posted after the caller returned runs.
    init(fallback: DispatchQueue) {
        self.fallback = fallback
    }

    /// Hands `work` to the caller (from any thread).
    func post(_ work: @escaping @Sendable () -> Void) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            if state.next == nil { state.next = work } else { state.more.append(work) }
            Self.resumeWaiter(&state)
            return true
        }
        if !accepted { fallback.async(execute: work) }
    }

    /// Stores the result with `store` and tells the caller it is there (from any thread); once:
    /// later calls store nothing.
    func finish(storing store: () -> Void) {
        state.withLock { state in
            guard !state.isClosed, !state.isFinished else { return }
            store()
            state.hasResult = true
            state.isFinished = true
            Self.resumeWaiter(&state)
        }
    }

    /// Whether the result was stored; read after ``run()`` returned.
    var hasResult: Bool { state.withLock { $0.hasResult } }

    /// Resumes the waiting caller, if any, inside the lock: the caller takes this lock before it
    /// waits again, so its next wait is ordered after this resume (the Swift runtime's own
    /// hand-off, when a resume wins the race with the await, is invisible to the thread
    /// sanitizer). A resume only marks the continuation or enqueues the task; it never runs it
    /// here. So no cancellation handler of the awaiting task may take this lock: it hands its
    /// cancel off (``TaskCancellationHandoff``).
    private static func resumeWaiter(_ state: inout State) {
        let waiter = state.waiter
        state.waiter = nil
        waiter?.resume()
    }

    /// Runs posted work, in order, until ``finish(storing:)`` is called.
    func run() async {
        while true {
            let (work, finished) = take()
            if let work {
                work()
            } else if finished {
                return
            } else {
                await withUnsafeContinuation { continuation in
                    // Resumed by the next post or finish, or now if one came in between.
                    let ready = state.withLock { state -> Bool in
                        guard state.next == nil, !state.isFinished else { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    /// The next piece of work, else whether the caller finished (closing it: later work goes to
    /// `fallback`).
    private func take() -> (work: (@Sendable () -> Void)?, finished: Bool) {
        state.withLock { state in
            if let next = state.next {
                state.next = state.more.isEmpty ? nil : state.more.removeFirst()
                return (next, false)
            }
            guard state.isFinished else { return (nil, false) }
            state.isClosed = true
            return (nil, true)
        }
    }
}
