import Foundation

extension APIClient {
    /// Sends a request and returns its result. Cancelling the calling Task cancels the request,
    /// which then returns ``TransportError/Reason/cancelled``.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins (``RequestContext/info``), added to the request's
    ///     ``APIRequest/sendInfo``. Empty by default.
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = SendInfo()
    ) async -> APIResult<Request.Response> {
        // The response is processed on this task (see AwaitingCaller): one thread crossing per
        // response instead of two.
        let caller = AwaitingCaller(fallback: processingQueue)
        let slot = ResultSlot<Request.Response>()
        let handle = perform(
            request,
            route: .inPlace { result in
                slot.result = result
                caller.finish()
            }, options: SendOptions(reportsProgress: false, info: info), processing: caller.post)
        await withTaskCancellationHandler {
            await caller.run()
        } onCancel: {
            handle.cancel()
        }
        return slot.result ?? .transportError(.cancelled())
    }

    /// Starts a request and returns it as an ``APITask``: its progress as an async sequence, its
    /// result to await, and its handle.
    ///
    /// ```swift
    /// let upload = client.task(for: UploadVideo(file: url))
    /// for await progress in upload.progressUpdates { bar.value = progress.fractionCompleted ?? 0 }
    /// let result = await upload.result
    /// ```
    ///
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    public func task<Request: APIRequest>(
        for request: Request, info: SendInfo = SendInfo()
    ) -> APITask<Request.Response> {
        let box = APITask<Request.Response>.ResultBox()
        let handle = perform(request, route: .inPlace { box.deliver($0) }, options: SendOptions(info: info))
        return APITask(handle: handle, box: box)
    }

    /// Sends a request and returns the decoded value.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    /// - Throws: ``ServerFailure`` when the server said "no", ``TransportError`` otherwise.
    public func value<Request: APIRequest>(
        for request: Request, info: SendInfo = SendInfo()
    ) async throws -> Request.Response {
        try await send(request, info: info).get()
    }
}

/// Holds the handle of an async send so a Task cancellation that races its creation still
/// cancels it.
final class PendingHandle: Sendable {
    private let state = Locked<(handle: RequestHandle?, cancelled: Bool)>((nil, false))

    func set(_ handle: RequestHandle) {
        let cancelled = state.withLock { state -> Bool in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }
    }

    func cancel() {
        let handle = state.withLock { state -> RequestHandle? in
            state.cancelled = true
            return state.handle
        }
        handle?.cancel()
    }
}
