import EndpointKit

/// Hears how a batch ended, in the style of YTKNetwork's batch request delegate. Both methods
/// have empty defaults, run on the main actor after the batch's completion closure, and receive
/// the batch's handle (the one `APIClient.batch(_:policy:maxConcurrent:delegate:)` returned) so
/// one object can tell several batches apart. Delegates are held weakly.
///
/// The result is generic; cast its ``BatchResult/results`` to the tuple you sent:
///
/// ```swift
/// func batch<Results>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>) {
///     guard batch == profileBatch,
///         case let (user, feed)? = result.results as? (APIResult<User>, APIResult<[Post]>)
///     else { return }
///     ...
/// }
/// ```
@MainActor
public protocol BatchRequestDelegate: AnyObject {
    /// Every request of the batch succeeded.
    func batch<Results: Sendable>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>)
    /// A request failed (or the batch was cancelled); `result` still has every request's own result.
    func batch<Results: Sendable>(
        _ batch: RequestHandle, didFailWith failure: BatchFailure, result: BatchResult<Results>)
}

extension BatchRequestDelegate {
    /// Does nothing.
    public func batch<Results: Sendable>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>) {}
    /// Does nothing.
    public func batch<Results: Sendable>(
        _ batch: RequestHandle, didFailWith failure: BatchFailure, result: BatchResult<Results>
    ) {}
}

extension BatchRequestDelegate {
    /// Calls the method that matches `result`.
    func receive<Results: Sendable>(_ result: BatchResult<Results>, for batch: RequestHandle) {
        if let failure = result.failure {
            self.batch(batch, didFailWith: failure, result: result)
        } else {
            self.batch(batch, didSucceedWith: result)
        }
    }
}
