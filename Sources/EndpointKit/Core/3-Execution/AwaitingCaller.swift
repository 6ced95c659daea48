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
/// Work posted before ``finish()`` runs first, in order; work posted after the caller returned
/// (a late completion of a cancelled request) runs on `fallback`, so nothing posted is dropped.
///
/// Not generic: the result travels in a ``ResultSlot`` the caller owns, so no generic metadata is
/// looked up for the caller's response type on every step.
final class AwaitingCaller: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var isFinished = false
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
        let (accepted, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Void, Never>?) in
            guard !state.isClosed else { return (false, nil) }
            state.work.append(work)
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        guard accepted else { return fallback.async(execute: work) }
        waiter?.resume()
    }

    /// Tells the caller its result is in its slot (from any thread); later calls do nothing.
    func finish() {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.isClosed, !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Runs posted work, in order, until ``finish()`` is called.
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
                        guard state.work.isEmpty, !state.isFinished else { return true }
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
            if !state.work.isEmpty { return (state.work.removeFirst(), false) }
            guard state.isFinished else { return (nil, false) }
            state.isClosed = true
            return (nil, true)
        }
    }
}

/// Where an awaited send's result waits for its caller: written once before
/// ``AwaitingCaller/finish()``, read once after ``AwaitingCaller/run()`` returned (the caller's
/// lock orders the two).
final class ResultSlot<Value: Sendable>: @unchecked Sendable {
    var result: APIResult<Value>?
}
