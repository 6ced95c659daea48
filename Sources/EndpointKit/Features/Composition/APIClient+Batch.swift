import Dispatch
import Foundation

extension APIClient {
    /// Sends several requests, of different types, together and returns when all of them ended.
    ///
    /// ```swift
    /// let batch = await client.batch(GetUser(id: 7), GetFeed(), GetAds(), policy: .failFast)
    /// let (user, feed, ads) = batch.results        // each request's own typed APIResult
    /// ```
    ///
    /// Cancelling the calling Task cancels the batch. An empty batch completes at once.
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default. Requests start
    ///     in order as others end.
    /// - Returns: Every request's result and the batch's failure, if any.
    public func batch<each Request: APIRequest>(
        _ requests: repeat each Request, policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4
    ) async -> BatchResult<(repeat APIResult<(each Request).Response>)> {
        let slots = (repeat Self.slot(for: each requests))
        var operations: [BatchOperation] = []
        repeat operations.append((each slots).operation(sending: each requests, through: self))
        let failure = await runBatch(operations, policy: policy, maxConcurrent: maxConcurrent)
        return BatchResult(results: (repeat (each slots).result), failure: failure)
    }

    /// Sends several requests, of different types, together and calls `completion` once, on the
    /// main actor, when all of them ended (the `async` form returns the same result).
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default.
    ///   - completion: Called exactly once with every request's result.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func batch<each Request: APIRequest>(
        _ requests: repeat each Request, policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4,
        completion: @escaping @MainActor @Sendable (BatchResult<(repeat APIResult<(each Request).Response>)>) -> Void
    ) -> RequestHandle {
        startBatch(
            of: repeat each requests, policy: policy, maxConcurrent: maxConcurrent, delegate: nil,
            completion: completion)
    }

    /// Sends several requests, of different types, together and tells only the delegate (on the
    /// main actor) when all of them ended.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func batch<each Request: APIRequest>(
        _ requests: repeat each Request, policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4,
        delegate: any BatchRequestDelegate
    ) -> RequestHandle {
        startBatch(
            of: repeat each requests, policy: policy, maxConcurrent: maxConcurrent, delegate: delegate,
            completion: { _ in })
    }

    /// Sends any number of requests of one type together and returns when all of them ended,
    /// every result in the order given. Cancelling the calling Task cancels the batch.
    ///
    /// ```swift
    /// let uploads = await client.batch(files.map { UploadPhoto(file: $0) }, policy: .failFast, maxConcurrent: 2)
    /// ```
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default.
    /// - Returns: Every request's result and the batch's failure, if any.
    public func batch<Request: APIRequest>(
        _ requests: [Request], policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4
    ) async -> BatchResult<[APIResult<Request.Response>]> {
        let slots = requests.map { Self.slot(for: $0) }
        let operations = zip(slots, requests).map { $0.operation(sending: $1, through: self) }
        let failure = await runBatch(operations, policy: policy, maxConcurrent: maxConcurrent)
        return BatchResult(results: slots.map(\.result), failure: failure)
    }

    /// Sends any number of requests of one type together and calls `completion` once, on the
    /// main actor, when all of them ended (the `async` form returns the same result).
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default.
    ///   - completion: Called exactly once with every request's result.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func batch<Request: APIRequest>(
        _ requests: [Request], policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4,
        completion: @escaping @MainActor @Sendable (BatchResult<[APIResult<Request.Response>]>) -> Void
    ) -> RequestHandle {
        startBatch(
            of: requests, policy: policy, maxConcurrent: maxConcurrent, delegate: nil, completion: completion)
    }

    /// Sends any number of requests of one type together and tells only the delegate (on the
    /// main actor) when all of them ended.
    /// - Returns: The batch's handle: cancelling it cancels every request still running or waiting.
    @discardableResult
    public func batch<Request: APIRequest>(
        _ requests: [Request], policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4,
        delegate: any BatchRequestDelegate
    ) -> RequestHandle {
        startBatch(
            of: requests, policy: policy, maxConcurrent: maxConcurrent, delegate: delegate, completion: { _ in })
    }

    // MARK: - Running

    private static func slot<Request: APIRequest>(for request: Request) -> BatchSlot<Request.Response> {
        BatchSlot()
    }

    /// Starts a batch of different requests for the closure and delegate forms.
    private func startBatch<each Request: APIRequest>(
        of requests: repeat each Request, policy: BatchPolicy, maxConcurrent: Int,
        delegate: (any BatchRequestDelegate)?,
        completion: @escaping @MainActor @Sendable (BatchResult<(repeat APIResult<(each Request).Response>)>) -> Void
    ) -> RequestHandle {
        let slots = (repeat Self.slot(for: each requests))
        var operations: [BatchOperation] = []
        repeat operations.append((each slots).operation(sending: each requests, through: self))
        return startBatch(
            operations, policy: policy, maxConcurrent: maxConcurrent, delegate: delegate,
            results: { (repeat (each slots).result) }, completion: completion)
    }

    /// Starts a batch of one request type for the closure and delegate forms.
    private func startBatch<Request: APIRequest>(
        of requests: [Request], policy: BatchPolicy, maxConcurrent: Int, delegate: (any BatchRequestDelegate)?,
        completion: @escaping @MainActor @Sendable (BatchResult<[APIResult<Request.Response>]>) -> Void
    ) -> RequestHandle {
        let slots = requests.map { Self.slot(for: $0) }
        let operations = zip(slots, requests).map { $0.operation(sending: $1, through: self) }
        return startBatch(
            operations, policy: policy, maxConcurrent: maxConcurrent, delegate: delegate,
            results: { slots.map(\.result) }, completion: completion)
    }

    /// Runs a batch for an async caller and returns its failure. Not generic on purpose: the
    /// typed results stay in the slots, so no continuation is specialized on a parameter pack.
    private func runBatch(
        _ operations: [BatchOperation], policy: BatchPolicy, maxConcurrent: Int
    ) async
        -> BatchFailure?
    {
        let pending = PendingHandle()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let execution = BatchExecution(
                    run: CompositeRun(client: self, endpoint: "Batch"), operations: operations, policy: policy,
                    maxConcurrent: maxConcurrent
                ) { continuation.resume(returning: $0) }
                execution.start()
                pending.set(execution.handle)
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// Runs a batch for a closure and a delegate: the closure, then the delegate, in one turn of
    /// the main queue.
    private func startBatch<Results: Sendable>(
        _ operations: [BatchOperation], policy: BatchPolicy, maxConcurrent: Int,
        delegate: (any BatchRequestDelegate)?, results: @escaping @Sendable () -> Results,
        completion: @escaping @MainActor @Sendable (BatchResult<Results>) -> Void
    ) -> RequestHandle {
        let delegate = delegate.map { WeakReference<any BatchRequestDelegate>($0) }
        let run = CompositeRun(client: self, endpoint: "Batch")
        let batch = run.handle
        let execution = BatchExecution(run: run, operations: operations, policy: policy, maxConcurrent: maxConcurrent) {
            failure in
            let result = BatchResult(results: results(), failure: failure)
            MainQueue.async {
                completion(result)
                delegate?.value?.receive(result, for: batch)
            }
        }
        execution.start()
        return batch
    }
}
