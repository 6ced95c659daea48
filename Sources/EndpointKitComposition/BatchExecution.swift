@_spi(Internal) import EndpointKit

/// One request of a batch with its type erased: starts the request, calls `finished` once with its
/// failure (`nil` on success), and returns the request's handle.
typealias BatchOperation = @Sendable (_ finished: @escaping @Sendable (APIFailure?) -> Void) -> RequestHandle

/// Runs a batch: starts at most `maxConcurrent` operations at a time in order, applies the
/// ``BatchPolicy``, and calls `emit` exactly once, with the batch's failure or `nil`.
///
/// Operations may complete synchronously (a request that cannot be built); starting is a loop,
/// not a recursion, so a long batch of such requests does not grow the stack.
final class BatchExecution: Sendable {
    private struct State {
        var next = 0
        var active = 0
        var running: [Int: RequestHandle] = [:]
        var completed: Set<Int> = []
        var failures: [Int: APIFailure] = [:]
        var isStopped = false
        var isStarting = false
    }

    private enum Step {
        case none
        case startMore
        case finish(BatchFailure?)
        case stop(cancelling: [RequestHandle], BatchFailure)
    }

    private let run: CompositeRun
    private let operations: [BatchOperation]
    private let policy: BatchPolicy
    private let width: Int
    private let emit: @Sendable (BatchFailure?) -> Void
    private let state = Locked(State())

    init(
        run: CompositeRun, operations: [BatchOperation], policy: BatchPolicy, maxConcurrent: Int,
        emit: @escaping @Sendable (BatchFailure?) -> Void
    ) {
        self.run = run
        self.operations = operations
        self.policy = policy
        width = max(1, maxConcurrent)
        self.emit = emit
    }

    /// The batch's handle: cancelling it cancels every request still running or waiting.
    var handle: RequestHandle { run.handle }

    func start() {
        run.begin { [self] in
            let running = state.withLock { state in
                state.isStopped = true
                return Array(state.running.values)
            }
            for child in running { child.cancel() }
            emit(
                BatchFailure(
                    index: nil, failure: .transport(TransportError(.cancelled, message: "The batch was cancelled."))))
        }
        guard !operations.isEmpty else { return finish(nil) }
        startMore()
    }

    /// Starts waiting operations while there is room; only one thread runs the loop at a time.
    private func startMore() {
        guard
            state.withLock({ state in
                defer { state.isStarting = true }
                return !state.isStarting
            })
        else { return }
        while let index = nextToStart() { launch(index) }
    }

    private func nextToStart() -> Int? {
        state.withLock { state -> Int? in
            guard !state.isStopped, state.next < operations.count, state.active < width else {
                state.isStarting = false
                return nil
            }
            defer {
                state.next += 1
                state.active += 1
            }
            return state.next
        }
    }

    private func launch(_ index: Int) {
        let child = operations[index]({ [self] failure in finished(index, failure: failure) })
        let cancelNow = state.withLock { state -> Bool in
            guard !state.completed.contains(index) else { return false }
            guard !state.isStopped else { return true }
            state.running[index] = child
            return false
        }
        if cancelNow { child.cancel() }
    }

    private func finished(_ index: Int, failure: APIFailure?) {
        let step = state.withLock { state -> Step in
            state.running[index] = nil
            state.completed.insert(index)
            state.active -= 1
            guard !state.isStopped else { return .none }
            if let failure {
                state.failures[index] = failure
                if policy == .failFast {
                    state.isStopped = true
                    return .stop(cancelling: Array(state.running.values), BatchFailure(index: index, failure: failure))
                }
            }
            guard state.completed.count == operations.count else { return .startMore }
            state.isStopped = true
            let first = state.failures.min { $0.key < $1.key }
            return .finish(first.map { BatchFailure(index: $0.key, failure: $0.value) })
        }
        switch step {
        case .none: break
        case .startMore: startMore()
        case .finish(let failure): finish(failure)
        case .stop(let running, let failure):
            for child in running { child.cancel() }
            finish(failure)
        }
    }

    private func finish(_ failure: BatchFailure?) {
        guard run.complete(succeeded: failure == nil) else { return }
        emit(failure)
    }
}

/// Where one typed request of a batch keeps its result.
final class BatchSlot<Value: Sendable>: Sendable {
    private let stored = Locked<APIResult<Value>?>(nil)

    /// The request's result; ``/EndpointKit/TransportError/Reason/cancelled`` if it never completed.
    var result: APIResult<Value> {
        stored.current
            ?? .transportError(
                TransportError(.cancelled, message: "The request was not sent: its batch ended before it started."))
    }

    /// The operation that sends `request` through `client` and fills this slot.
    func operation<Request: APIRequest>(
        sending request: Request, through client: APIClient
    ) -> BatchOperation where Request.Response == Value {
        { [stored] finished in
            client.start(
                request,
                route: .inPlace { result in
                    stored.withLock { $0 = $0 ?? result }
                    finished(result.failure)
                }, options: SendOptions(reportsProgress: false))
        }
    }
}
