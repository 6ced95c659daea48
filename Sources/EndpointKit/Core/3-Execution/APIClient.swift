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
    let builder: URLRequestBuilder
    let processingQueue = DispatchQueue(label: "EndpointKit.APIClient.processing", attributes: .concurrent)
    let registry = RequestRegistry()
    /// Where attempts go: the configured transport.
    let sender: TransportSender
    /// The features this client's configuration asks for (Features/), in the order their stages
    /// run; each gives a send the stage it needs, if any.
    let features: [any ClientFeature]

    /// Creates a client.
    public init(configuration: Configuration) {
        self.configuration = configuration
        builder = URLRequestBuilder(configuration: configuration)
        sender = TransportSender(configuration.transport)
        features = configuration.makeFeatures(sender: sender)
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
        _ request: Request, info: SendInfo = SendInfo(),
        progress: (@MainActor @Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        let onProgress = progress.map { progress in
            { @Sendable (value: TransferProgress) in MainQueue.async { progress(value) } }
        }
        return perform(request, route: .mainActor(completion), progress: onProgress, options: SendOptions(info: info))
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
        _ request: Request, info: SendInfo = SendInfo(), on queue: DispatchQueue,
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
        _ request: Request, info: SendInfo = SendInfo(), delegate: any APIRequestDelegate
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
    ///   - processing: Runs the processing of each response; the client's processing queue when
    ///     `nil`.
    func perform<Request: APIRequest>(
        _ request: Request, route: ResultDelivery<Request>.Route, delegate: (any APIRequestDelegate)? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, options: SendOptions = .none,
        processing: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
    ) -> RequestHandle {
        var delegates: [WeakReference<any APIRequestDelegate>] = []
        if let delegate { delegates.append(WeakReference(delegate)) }
        // Only a class (a BaseRequest) carries its own delegate: no conformance lookup for a struct.
        if Request.self is AnyClass, let own = (request as? any DelegatingRequest)?.weakDelegate {
            delegates.append(own)
        }
        let execution = prepare(
            request, route: route, delegates: delegates, progress: progress, options: options, processing: processing)
        execution.start()
        return execution.handle
    }

    /// A send ready to ``RequestExecution/start()``, for a send that must wait for another first
    /// (the network half of `send(_:cached:completion:)` waits for the cache lookup). Its handle
    /// may be cancelled before it starts: it then completes as cancelled when started.
    func prepare<Request: APIRequest>(
        _ request: Request, route: ResultDelivery<Request>.Route,
        delegates: [WeakReference<any APIRequestDelegate>] = [],
        progress: (@Sendable (TransferProgress) -> Void)? = nil, options: SendOptions = .none,
        processing: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
    ) -> RequestExecution<Request> {
        let delivery = ResultDelivery<Request>(route: route, delegates: delegates)
        let execution = RequestExecution(client: self, request: request, options: options, processing: processing) {
            delivery.deliver($0, for: request)
        }
        if let progress { execution.handle.progressReporter.setHandler(progress) }
        return execution
    }
}
