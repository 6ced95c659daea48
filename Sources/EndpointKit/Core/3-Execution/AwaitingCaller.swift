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
/// Work posted before the result runs first, in order; work posted after the result was taken
/// (a late completion of a cancelled request) runs on `fallback`, so nothing posted is dropped.
final class AwaitingCaller<Value: Sendable>: Sendable {
    // Work and the result are kept apart so that the queue of work is not generic: the client's
    // code is not specialised for the caller's `Request` type, and every generic operation on it
    // would look up type metadata at run time.
    private struct State {
        var work: [@Sendable () -> Void] = []
        var result: Value?
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

    /// Hands the caller its result (from any thread); later results are ignored.
    func finish(_ value: Value) {
        let waiter = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard !state.isClosed, state.result == nil else { return nil }
            state.result = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Runs posted work, in order, until the result arrives, then returns it.
    func run() async -> Value {
        while true {
            switch take() {
            case .work(let work):
                work()
            case .result(let value):
                return value
            case .none:
                await withUnsafeContinuation { continuation in
                    // Resumed by the next post or finish, or now if one came in between.
                    let ready = state.withLock { state -> Bool in
                        guard state.work.isEmpty, state.result == nil else { return true }
                        state.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    private enum Next {
        case work(@Sendable () -> Void)
        case result(Value)
        case none
    }

    /// The next piece of work, else the result (closing the caller: later work goes to
    /// `fallback`), else nothing.
    private func take() -> Next {
        state.withLock { state in
            if !state.work.isEmpty { return .work(state.work.removeFirst()) }
            guard let result = state.result else { return .none }
            state.isClosed = true
            return .result(result)
        }
    }
}
