import EndpointKit

extension APIClient {
    /// Sends a batch and returns when all of its requests ended.
    ///
    /// ```swift
    /// let batch = await client.send(RequestBatch(GetUser(id: 7), GetFeed()))
    /// let (user, feed) = try batch.values()
    /// ```
    ///
    /// Cancelling the calling Task cancels the batch. An empty batch completes at once.
    /// - Parameter batch: The requests and how they run.
    /// - Returns: Every request's result and the batch's failure, if any.
    public func send<Results: Sendable>(_ batch: RequestBatch<Results>) async -> BatchResult<Results> {
        let (operations, results) = batch.plan(self)
        let pending = PendingHandle()
        let failure = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let execution = BatchExecution(
                    run: CompositeRun(client: self, endpoint: "Batch"), operations: operations, policy: batch.policy,
                    maxConcurrent: batch.maxConcurrent
                ) { continuation.resume(returning: $0) }
                execution.start()
                pending.set(execution.handle)
            }
        } onCancel: {
            pending.cancel()
        }
        return BatchResult(results: results(), failure: failure)
    }

    /// Sends a batch and calls `completion` once, on the main actor, when all of its requests
    /// ended.
    /// - Parameters:
    ///   - batch: The requests and how they run.
    ///   - completion: Called exactly once with every request's result.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func send<Results: Sendable>(
        _ batch: RequestBatch<Results>, completion: @escaping @MainActor @Sendable (BatchResult<Results>) -> Void
    ) -> RequestHandle {
        start(batch, delegate: nil, completion: completion)
    }

    /// Sends a batch and tells only the delegate, on the main actor, when all of its requests
    /// ended.
    /// - Parameters:
    ///   - batch: The requests and how they run.
    ///   - delegate: Told the outcome on the main actor; held weakly.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func send<Results: Sendable>(
        _ batch: RequestBatch<Results>, delegate: any BatchRequestDelegate
    ) -> RequestHandle {
        start(batch, delegate: delegate, completion: { _ in })
    }

    private func start<Results: Sendable>(
        _ batch: RequestBatch<Results>, delegate: (any BatchRequestDelegate)?,
        completion: @escaping @MainActor @Sendable (BatchResult<Results>) -> Void
    ) -> RequestHandle {
        let (operations, results) = batch.plan(self)
        let delegate = delegate.map { WeakReference<any BatchRequestDelegate>($0) }
        let run = CompositeRun(client: self, endpoint: "Batch")
        let handle = run.handle
        let execution = BatchExecution(
            run: run, operations: operations, policy: batch.policy, maxConcurrent: batch.maxConcurrent
        ) { failure in
            let result = BatchResult(results: results(), failure: failure)
            MainQueue.async {
                completion(result)
                delegate?.value?.receive(result, for: handle)
            }
        }
        execution.start()
        return handle
    }
}
