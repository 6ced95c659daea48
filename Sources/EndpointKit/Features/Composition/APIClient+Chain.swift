import Dispatch

extension APIClient {
    /// Sends a chain of dependent requests and calls `completion` once, on the main actor, with
    /// the last step's result or the first failure.
    /// - Returns: The chain's handle: cancelling it cancels the request in flight and stops the chain.
    @discardableResult
    public func send<Value: Sendable>(
        _ chain: RequestChain<Value>, completion: @escaping @MainActor @Sendable (APIResult<Value>) -> Void
    ) -> RequestHandle {
        start(chain) { result in MainQueue.async { completion(result) } }
    }

    /// Sends a chain of dependent requests and returns the last step's result or the first
    /// failure. Cancelling the calling Task cancels the chain, which then returns
    /// ``TransportError/Reason/cancelled``.
    public func send<Value: Sendable>(_ chain: RequestChain<Value>) async -> APIResult<Value> {
        let pending = PendingHandle()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.set(start(chain) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// Sends a chain of dependent requests and returns the last step's value.
    /// - Throws: The first failure: ``ServerFailure`` when the server said "no", ``TransportError``
    ///   otherwise.
    public func value<Value: Sendable>(for chain: RequestChain<Value>) async throws -> Value {
        try await send(chain).get()
    }

    /// Runs a chain; `deliver` is called exactly once, on an internal queue.
    private func start<Value: Sendable>(
        _ chain: RequestChain<Value>, deliver: @escaping @Sendable (APIResult<Value>) -> Void
    ) -> RequestHandle {
        let run = CompositeRun(client: self, endpoint: "Chain")
        let runner = ChainRunner(client: self, run: run)
        run.begin {
            runner.cancelCurrent()
            deliver(.transportError(.cancelled()))
        }
        chain.body(runner) { result in
            guard run.complete(succeeded: result.isSuccess) else { return }
            deliver(result)
        }
        return run.handle
    }
}
