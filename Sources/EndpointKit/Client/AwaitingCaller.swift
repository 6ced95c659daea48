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
/// Work posted after the result was taken (a late completion of a cancelled request) runs on
/// `fallback`, so nothing posted is ever dropped.
final class AwaitingCaller<Value: Sendable>: Sendable {
    private enum Item {
        case work(@Sendable () -> Void)
        case finished(Value)
    }

    private struct State {
        var items: [Item] = []
        var waiter: UnsafeContinuation<Item, Never>?
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
        if !deliver(.work(work)) { fallback.async(execute: work) }
    }

    /// Hands the caller its result (from any thread); later results are ignored.
    func finish(_ value: Value) {
        _ = deliver(.finished(value))
    }

    /// Runs posted work until the result arrives, then returns it.
    func run() async -> Value {
        while true {
            switch await next() {
            case .work(let work):
                work()
            case .finished(let value):
                let late = state.withLock { state -> [Item] in
                    state.isClosed = true
                    defer { state.items = [] }
                    return state.items
                }
                for case .work(let work) in late { fallback.async(execute: work) }
                return value
            }
        }
    }

    /// - Returns: `false` if the caller has already returned.
    private func deliver(_ item: Item) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<Item, Never>?) in
            guard !state.isClosed else { return (false, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, waiter)
            }
            state.items.append(item)
            return (true, nil)
        }
        waiter?.resume(returning: item)
        return accepted
    }

    private func next() async -> Item {
        if let ready = state.withLock({ $0.items.isEmpty ? nil : $0.items.removeFirst() }) { return ready }
        return await withUnsafeContinuation { continuation in
            let ready = state.withLock { state -> Item? in
                guard state.items.isEmpty else { return state.items.removeFirst() }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
