/// A request in flight seen from async code: its result, its progress and its handle.
///
/// Created by ``APIClient/task(for:info:)``. Awaiting ``result`` from a Task that is then cancelled
/// cancels the request.
public final class APITask<Value: Sendable>: Sendable {
    /// The request's handle (cancel, state, tag).
    public let handle: RequestHandle
    private let box: ResultBox

    init(handle: RequestHandle, box: ResultBox) {
        self.handle = handle
        self.box = box
    }

    /// The request's result, once it completes.
    public var result: APIResult<Value> {
        get async {
            await withTaskCancellationHandler {
                await box.wait()
            } onCancel: { [handle] in
                handle.cancel()
            }
        }
    }

    /// The decoded value.
    /// - Throws: ``ServerFailure`` or ``TransportError``.
    public var value: Value {
        get async throws { try await result.get() }
    }

    /// Progress values, never going backwards, ending at 1.0 on success.
    public var progressUpdates: AsyncStream<TransferProgress> { handle.progressUpdates }

    /// Cancels the request.
    public func cancel() { handle.cancel() }

    /// Holds the result until someone awaits it; any number of waiters get the same result.
    final class ResultBox: Sendable {
        private let state = Locked<
            (result: APIResult<Value>?, waiters: [CheckedContinuation<APIResult<Value>, Never>])
        >(
            (nil, []))

        func deliver(_ result: APIResult<Value>) {
            let waiters = state.withLock { state -> [CheckedContinuation<APIResult<Value>, Never>] in
                guard state.result == nil else { return [] }
                state.result = result
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }

        func wait() async -> APIResult<Value> {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> APIResult<Value>? in
                    if let result = state.result { return result }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
