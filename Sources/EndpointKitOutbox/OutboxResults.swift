import EndpointKit

/// The results of an ``Outbox``'s entries as an async sequence (``Outbox/results``).
///
/// Each iteration starts with the results nobody has heard yet (from this launch or an earlier
/// one), then gets every result as it comes, until the outbox is released or the iterating Task is
/// cancelled. A result the loop has not taken when it ends is kept for the next listener.
///
/// ```swift
/// Task {
///     for await result in outbox.results { handle(result) }
/// }
/// ```
public struct OutboxResults: AsyncSequence, Sendable {
    /// One result.
    public typealias Element = OutboxResult

    let dispatcher: ResultDispatcher

    /// Reads the results one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let lease: IterationLease

        /// The next result; `nil` once the outbox is gone or the Task is cancelled.
        public mutating func next() async -> OutboxResult? {
            guard let ticket = await lease.buffer.next() else { return nil }
            return lease.dispatcher.handOver(ticket)
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(lease: IterationLease(dispatcher: dispatcher, buffer: dispatcher.startIteration()))
    }
}

/// An iteration of ``OutboxResults``, ended when the last copy of its iterator goes away.
final class IterationLease: Sendable {
    let dispatcher: ResultDispatcher
    let buffer: ResultBuffer

    init(dispatcher: ResultDispatcher, buffer: ResultBuffer) {
        self.dispatcher = dispatcher
        self.buffer = buffer
    }

    deinit { dispatcher.endIteration(buffer) }
}

/// The results waiting for one iteration, and the iteration waiting for them.
final class ResultBuffer: Sendable {
    private struct State {
        var items: [ResultDispatcher.Ticket] = []
        var waiter: CheckedContinuation<ResultDispatcher.Ticket?, Never>?
        var finished = false
    }

    private let state = Locked(State())

    func push(_ tickets: [ResultDispatcher.Ticket]) {
        guard !tickets.isEmpty else { return }
        let (waiter, first) = state.withLock {
            state -> (CheckedContinuation<ResultDispatcher.Ticket?, Never>?, ResultDispatcher.Ticket?) in
            guard !state.finished else { return (nil, nil) }
            state.items += tickets
            guard let waiter = state.waiter else { return (nil, nil) }
            state.waiter = nil
            return (waiter, state.items.removeFirst())
        }
        waiter?.resume(returning: first)
    }

    func next() async -> ResultDispatcher.Ticket? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ResultDispatcher.Ticket?, Never>) in
                let ready = state.withLock { state -> ResultDispatcher.Ticket?? in
                    if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<ResultDispatcher.Ticket?, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Ends the iteration; returns the results it had not taken.
    @discardableResult
    func finish() -> [ResultDispatcher.Ticket] {
        let (waiter, left) = state.withLock {
            state -> (CheckedContinuation<ResultDispatcher.Ticket?, Never>?, [ResultDispatcher.Ticket]) in
            state.finished = true
            defer {
                state.waiter = nil
                state.items = []
            }
            return (state.waiter, state.items)
        }
        waiter?.resume(returning: nil)
        return left
    }
}
