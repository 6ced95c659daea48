/// The handle side of an operation made of several requests (a batch, a chain): registered with
/// the client while it runs (so ``APIClient/cancelAllRequests()`` reaches it), cancellable
/// through its ``RequestHandle``, and completed exactly once.
package final class CompositeRun: Sendable {
    package let handle: RequestHandle
    private let client: APIClient

    package init(client: APIClient, endpoint: String, tag: String? = nil) {
        self.client = client
        handle = RequestHandle(tag: tag, endpoint: endpoint)
    }

    /// Registers the handle. `onCancel` runs once if the handle is cancelled before it completes;
    /// it must stop the requests in flight and deliver the cancelled outcome.
    package func begin(onCancel: @escaping @Sendable () -> Void) {
        handle.setCancellation { [self] in
            end(succeeded: false)
            onCancel()
        }
        client.registry.insert(handle)
    }

    /// Marks the operation completed. `false` when it had already completed or been cancelled, in
    /// which case the caller must deliver nothing.
    package func complete(succeeded: Bool) -> Bool {
        guard handle.markCompleted() else { return false }
        end(succeeded: succeeded)
        return true
    }

    private func end(succeeded: Bool) {
        client.registry.remove(handle)
        handle.progressReporter.complete(succeeded: succeeded)
    }
}
