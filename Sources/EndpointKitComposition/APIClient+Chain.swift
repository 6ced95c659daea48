import Dispatch
import EndpointKit

extension APIClient {
    /// Sends a chain of dependent requests and calls `completion` once, on the main actor, with
    /// the last step's result or the first failure, which step failed, and the values before it.
    /// - Returns: The chain's handle: cancelling it cancels the request in flight and stops the chain.
    @discardableResult
    public func send<Value: Sendable>(
        _ chain: RequestChain<Value>, completion: @escaping @MainActor @Sendable (ChainResult<Value>) -> Void
    ) -> RequestHandle {
        start(chain) { result, _ in MainQueue.async { completion(result) } }
    }

    /// Sends a chain of dependent requests and tells only the delegate, on the main actor.
    /// - Parameters:
    ///   - chain: The chain.
    ///   - delegate: Told the outcome; held weakly.
    /// - Returns: The chain's handle, also passed to the delegate.
    @discardableResult
    public func send<Value: Sendable>(_ chain: RequestChain<Value>, delegate: any ChainRequestDelegate) -> RequestHandle
    {
        let reference = WeakReference(delegate)
        return start(chain) { chain, handle in
            MainQueue.async {
                guard let delegate = reference.value else { return }
                switch chain.result.failure {
                case nil: delegate.chainRequestFinished(handle, values: chain.stepValues)
                case let failure?:
                    delegate.chainRequestFailed(
                        handle, step: chain.failedStep, failure: failure, values: chain.stepValues)
                }
            }
        }
    }

    /// Sends a chain of dependent requests and returns the last step's result or the first
    /// failure, which step failed and the values before it. Cancelling the calling Task cancels
    /// the chain, which then ends with ``/EndpointKit/TransportError/Reason/cancelled``.
    public func send<Value: Sendable>(_ chain: RequestChain<Value>) async -> ChainResult<Value> {
        let pending = PendingHandle()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.set(start(chain) { result, _ in continuation.resume(returning: result) })
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// Runs a chain; `deliver` is called exactly once, on an internal queue, with the chain's handle.
    private func start<Value: Sendable>(
        _ chain: RequestChain<Value>, deliver: @escaping @Sendable (ChainResult<Value>, RequestHandle) -> Void
    ) -> RequestHandle {
        let run = CompositeRun(client: self, endpoint: "Chain")
        let runner = ChainRunner(client: self, run: run)
        run.begin {
            runner.cancelCurrent()
            deliver(runner.report(APIResult<Value>.transportError(.cancelled()), cancelled: true), run.handle)
        }
        chain.body(runner) { result in
            guard run.complete(succeeded: result.isSuccess) else { return }
            deliver(runner.report(result), run.handle)
        }
        return run.handle
    }
}
