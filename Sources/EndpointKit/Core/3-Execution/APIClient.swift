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
/// client.send(GetUser(id: 7)) { result in ... }           // closure, on the callback queue
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

    /// Sends a request and calls `completion` once on the callback queue.
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What this send tells plugins (``RequestContext/info``), added to the request's
    ///     ``APIRequest/sendInfo``. Empty by default.
    ///   - delegate: Also told the outcome, on the main actor; held weakly. `nil` by default.
    ///   - progress: Called on the callback queue as bytes are sent and received, never going
    ///     backwards and ending at 1.0 on success. `nil` by default.
    ///   - completion: Called exactly once with the result.
    /// - Returns: A handle that cancels the request and also publishes its progress.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = SendInfo(), delegate: (any APIRequestDelegate)? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        perform(
            request, delegate: delegate, progress: progress, options: SendOptions(info: info),
            completionQueue: configuration.callbackQueue
        ) {
            completion($0)
        }
    }

    /// Sends a request and tells only the delegate (on the main actor).
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
        perform(request, delegate: delegate, progress: nil, options: SendOptions(info: info)) { _ in }
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
    /// delivery. `deliver` is called exactly once: on `completionQueue` when one is given,
    /// otherwise where `processing` runs responses (the processing queue by default), or on the
    /// thread that cancelled the request. The delegates hear the result on the main actor after
    /// `deliver` returned.
    func perform<Request: APIRequest>(
        _ request: Request, delegate explicitDelegate: (any APIRequestDelegate)?,
        progress: (@Sendable (TransferProgress) -> Void)?, options: SendOptions = .none,
        processing: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        completionQueue: DispatchQueue? = nil,
        deliver: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        var found: [WeakDelegate] = []
        if let explicitDelegate { found.append(WeakDelegate(explicitDelegate)) }
        // Only a class (a BaseRequest) carries its own delegate: no conformance lookup for a struct.
        if Request.self is AnyClass, let own = (request as? any DelegatingRequest)?.weakDelegate {
            found.append(own)
        }
        let delegates = found
        let tellDelegates: @Sendable (APIResult<Request.Response>, _ onMain: Bool) -> Void = { result, onMain in
            guard !delegates.isEmpty else { return }
            let tell: @Sendable () -> Void = {
                MainActor.assumeIsolated {
                    for delegate in delegates { delegate.deliver(result, for: request) }
                }
            }
            if onMain { tell() } else { DispatchQueue.main.async(execute: tell) }
        }
        let execution = RequestExecution(
            client: self, request: request, options: options, processing: processing
        ) { result in
            guard let completionQueue else {
                deliver(result)
                return tellDelegates(result, false)
            }
            // The closure first, then the delegates: in the same turn of the main queue when
            // that is the callback queue, in the next one otherwise. (Asked of the thread: on
            // Linux each `DispatchQueue.main` is a new object, so `===` cannot tell.)
            completionQueue.async {
                deliver(result)
                tellDelegates(result, Thread.isMainThread)
            }
        }
        if let progress { execution.handle.progressReporter.setHandler(queue: configuration.callbackQueue, progress) }
        execution.start()
        return execution.handle
    }
}
