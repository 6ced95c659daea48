import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends ``APIRequest``s and reports each outcome as an ``APIResult``: through a closure, a
/// delegate, or async/await.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com")) {
///     $0.defaultHeaders["Accept"] = "application/json"
///     $0.envelope = .statusResult()
/// }
///
/// client.send(GetUser(id: 7)) { result in ... }           // closure, on the main actor
/// client.send(GetUser(id: 7), delegate: self)              // delegate, on the main actor
/// let result = await client.send(GetUser(id: 7))           // async
/// let user = try await client.value(for: GetUser(id: 7))   // async, throwing
/// ```
///
/// Every send completes exactly once, also when cancelled or timed out.
public final class APIClient: Sendable {
    /// The settings every request starts from.
    public let configuration: Configuration
    package let builder: URLRequestBuilder
    package let processingQueue = DispatchQueue(label: "EndpointKit.APIClient.processing", attributes: .concurrent)
    let registry = RequestRegistry()
    /// Where attempts go: the configured transport.
    let sender: TransportSender
    /// Where attempts that share identical transfers go (``APIRequest/coalescesIdenticalRequests``):
    /// a coalescer in front of ``sender``.
    let coalescer: any AttemptSender
    /// The features this client's configuration asks for (Features/), in the order their stages
    /// run; each gives a send the stage it needs, if any.
    let features: FeatureList

    /// Creates a client.
    public init(configuration: Configuration) {
        self.configuration = configuration
        builder = URLRequestBuilder(configuration: configuration)
        sender = TransportSender(configuration.transport)
        coalescer = RequestCoalescer(next: sender)
        features = FeatureList(configuration.makeFeatures())
    }

    /// Creates a client with a base URL, adjusting the rest of the configuration in a closure.
    /// - Parameters:
    ///   - baseURL: The base URL request paths are appended to.
    ///   - configure: Changes to the default ``Configuration``.
    public convenience init(baseURL: URL?, configure: (inout Configuration) -> Void = { _ in }) {
        var configuration = Configuration(baseURL: baseURL)
        configure(&configuration)
        self.init(configuration: configuration)
    }

    /// Sends a request and calls `completion` once, on the main actor.
    ///
    /// ```swift
    /// client.send(GetUser(id: 7)) { result in
    ///     self.title = result.value?.name      // a view controller's state, as written
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins (``RequestContext/info``), added to the request's
    ///     ``APIRequest/sendInfo``. Empty by default.
    ///   - progress: Called on the main actor as bytes are sent and received, never going
    ///     backwards and ending at 1.0 on success. `nil` by default.
    ///   - completion: Called exactly once with the result, on the main actor, also when the
    ///     request is cancelled from another thread.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = .empty,
        progress: (@MainActor @Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        perform(
            request, route: .mainActor(completion), progress: progress.map(Self.onMainActor),
            options: SendOptions(info: info))
    }

    /// Sends a request and calls `completion` once on `queue` instead of the main actor: for
    /// code that is not on the main actor, such as a server.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - queue: Where `progress` and `completion` run.
    ///   - progress: Called on `queue` as bytes are sent and received. `nil` by default.
    ///   - completion: Called exactly once with the result, on `queue`.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = .empty, on queue: DispatchQueue,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        let onProgress = progress.map { progress in
            { @Sendable (value: TransferProgress) in queue.async { progress(value) } }
        }
        return perform(
            request, route: .queue(queue, completion), progress: onProgress, options: SendOptions(info: info))
    }

    /// Sends a request and tells only the delegate, on the main actor.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - delegate: Told the outcome on the main actor; held weakly.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = .empty, delegate: any APIRequestDelegate
    ) -> RequestHandle {
        perform(request, route: .inPlace { _ in }, delegate: delegate, options: SendOptions(info: info))
    }

    /// Builds the `URLRequest` a request would send, without sending it.
    /// - Throws: ``RequestBuildError``.
    public func urlRequest<Request: APIRequest>(for request: Request) throws(RequestBuildError) -> URLRequest {
        try builder.makeURLRequest(for: request)
    }

    /// The requests in flight, oldest first.
    public var inFlightRequests: [RequestHandle] { registry.all }

    /// Cancels every request in flight with this tag; each completes as cancelled.
    public func cancelRequests(tagged tag: String) {
        for handle in registry.all where handle.tag == tag { handle.cancel() }
    }

    /// Cancels every request in flight; each completes as cancelled.
    public func cancelAllRequests() {
        for handle in registry.all { handle.cancel() }
    }

    /// Runs one request through build, adaptation, transport, validation, decoding, retries and
    /// delivery. The result is handed over once, as `route` says; then the delegates (`delegate`
    /// and a ``BaseRequest``'s own) hear it on the main actor.
    /// - Parameters:
    ///   - progress: Told each progress value, on the thread that reports it (it hops itself).
    ///   - responseThread: Where each response is processed; the client's processing queue when
    ///     `nil`.
    func perform<Request: APIRequest>(
        _ request: Request, route: ResultDelivery<Request>.Route, delegate: (any APIRequestDelegate)? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, options: SendOptions = .none,
        responseThread: ResponseThread? = nil
    ) -> RequestHandle {
        var delegates: [WeakReference<any APIRequestDelegate>] = []
        if let delegate { delegates.append(WeakReference(delegate)) }
        // Only a class (a BaseRequest) carries its own delegate: no conformance lookup for a struct.
        if Request.self is AnyClass, let own = (request as? any DelegatingRequest)?.weakDelegate {
            delegates.append(own)
        }
        let execution = prepare(
            request, route: route, delegates: delegates, progress: progress, options: options,
            responseThread: responseThread)
        execution.start()
        return execution.handle
    }

    /// Starts a send for a module built on the core (a stream's connection, a batch's member, a
    /// chain's step): its result goes where `route` says, and each response is processed on the
    /// client's processing queue.
    package func start<Request: APIRequest>(
        _ request: Request, route: ResultDelivery<Request>.Route, options: SendOptions
    ) -> RequestHandle {
        perform(request, route: route, options: options)
    }

    /// A send ready to ``RequestExecution/start()``, for a send that must wait for another first
    /// (the network half of `send(_:cached:completion:)` waits for the cache lookup). Its handle
    /// may be cancelled before it starts: it then completes as cancelled when started.
    func prepare<Request: APIRequest>(
        _ request: Request, route: ResultDelivery<Request>.Route,
        delegates: [WeakReference<any APIRequestDelegate>] = [],
        progress: (@Sendable (TransferProgress) -> Void)? = nil, options: SendOptions = .none,
        responseThread: ResponseThread? = nil
    ) -> RequestExecution<Request> {
        // The first step of every send: the request read once, with this client's defaults.
        let resolved = ResolvedRequest(request, configuration: configuration)
        let execution = RequestExecution(
            client: self, request: request, resolved: resolved, options: options, route: route, delegates: delegates,
            responseThread: responseThread)
        if let progress { execution.handle.progressReporter.setHandler(progress) }
        return execution
    }
}

extension APIClient {
    /// Sends a request and returns its result. Cancelling the calling Task cancels the request,
    /// which then returns ``TransportError/Reason/cancelled``.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins (``RequestContext/info``), added to the request's
    ///     ``APIRequest/sendInfo``. Empty by default.
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = .empty
    ) async -> APIResult<Request.Response> {
        await awaitResult(of: request, info: info, progress: nil)
    }

    /// Sends a request and returns the decoded value.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - progress: Called on the main actor as bytes are sent and received, never going
    ///     backwards and ending at 1.0 on success. `nil` by default.
    /// - Throws: ``APIFailure``: `.server` when the server said "no", `.transport` otherwise.
    public func value<Request: APIRequest>(
        for request: Request, info: SendInfo = .empty,
        progress: (@MainActor @Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIFailure) -> Request.Response {
        // No `progress:` on `send(_:info:) async`: there a trailing closure would also match the
        // completion of `send(_:info:progress:completion:)`.
        try await awaitResult(of: request, info: info, progress: progress).get()
    }

    /// Inlined into its two callers: one look-up of the result type each, not two.
    @inline(__always)
    private func awaitResult<Request: APIRequest>(
        of request: Request, info: SendInfo, progress: (@MainActor @Sendable (TransferProgress) -> Void)?
    ) async -> APIResult<Request.Response> {
        // The response is processed on this task (see AwaitingCaller): one thread crossing per
        // response instead of two.
        let caller = AwaitingCaller(fallback: processingQueue)
        // The result's place: memory the delivery fills once and this function moves the result
        // out of. A generic object holding it instead would look the result type up at run time
        // in its initializer, setter and deinitializer. Only the delivery writes it, before
        // `finish`, and only this function reads it, after `run` returned (the caller's lock
        // orders the two).
        nonisolated(unsafe) let slot = UnsafeMutablePointer<APIResult<Request.Response>>.allocate(capacity: 1)
        let options =
            info.values.isEmpty && progress == nil
            ? SendOptions.awaited : SendOptions(reportsProgress: progress != nil, info: info)
        let handle = perform(
            request, route: .inPlace { result in caller.finish { slot.initialize(to: result) } },
            progress: progress.map(Self.onMainActor), options: options, responseThread: .awaitingCaller(caller))
        await withTaskCancellationHandler {
            await caller.run()
        } onCancel: {
            // Not here: the cancel takes the caller's lock (see TaskCancellationHandoff).
            TaskCancellationHandoff.cancel { handle.cancel() }
        }
        // Freed here rather than in a `defer` (nothing above exits early), which would be one more
        // generic function, with its own look-up of the result type.
        let result = caller.hasResult ? slot.move() : .transportError(.cancelled())
        slot.deallocate()
        return result
    }
}

extension APIClient {
    /// A `progress:` closure as the transport may call it, from any thread: each value hops to
    /// the main actor.
    fileprivate static func onMainActor(
        _ progress: @escaping @MainActor @Sendable (TransferProgress) -> Void
    ) -> @Sendable (TransferProgress) -> Void {
        { value in MainQueue.async { progress(value) } }
    }
}

/// Holds the handle of an async send so a Task cancellation that races its creation still
/// cancels it.
package final class PendingHandle: Sendable {
    private let state = Locked<(handle: RequestHandle?, cancelled: Bool)>((nil, false))

    package init() {}

    package func set(_ handle: RequestHandle) {
        let cancelled = state.withLock { state -> Bool in
            state.handle = handle
            return state.cancelled
        }
        if cancelled { handle.cancel() }
    }

    package func cancel() {
        let handle = state.withLock { state -> RequestHandle? in
            state.cancelled = true
            return state.handle
        }
        handle?.cancel()
    }
}
