import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves a built `URLRequest` over the network and hands back the raw response.
///
/// The seam between ``APIClient`` and the network. Choose one of the core's transports,
/// ``CurlTransport`` (the default on Linux) or ``URLSessionTransport`` (the default on Apple
/// platforms), or the testing kit's stubs; ``APIClient/Configuration/makeDefaultTransport()``
/// picks for the platform. ``TransportRequest`` is opaque outside the package, so a transport of
/// your own can only wrap one of these and pass requests on; observe transfers with an
/// ``APIPlugin`` instead.
///
/// Every transport calls `completion` exactly once per ``execute(_:completion:)``, also after
/// ``TransportTask/cancel()`` (with ``TransportError/Reason/cancelled``), enforces the request's
/// connect, idle and total limits (ending in ``TransportError/Reason/timedOut`` with the
/// ``TransportError/timeoutLimit`` that ran out), and checks the request head before writing it:
/// a method or header name that is not a token, or a header value holding CR, LF or NUL, fails
/// with ``TransportError/Reason/requestBuildFailed`` and nothing is sent.
public protocol Transport: Sendable {
    /// Starts a transfer.
    /// - Parameters:
    ///   - request: The request and its limits.
    ///   - completion: Called once, on any thread, with the response or a classified error.
    /// - Returns: A handle that cancels the transfer.
    func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask
}

/// A transport that is also told which endpoint each request was built from: for test doubles
/// that answer by endpoint (the testing kit's `StubTransport` matches stubs and sample responses
/// on the endpoint value). HTTP stacks implement ``Transport`` only and never see the endpoint.
///
/// ``APIClient`` calls `execute(_:for:completion:)` for every request it sends through such a
/// transport; ``Transport/execute(_:completion:)`` serves callers that have no endpoint.
package protocol EndpointAwareTransport: Transport {
    /// Starts a transfer of `request`, built from `endpoint`; the same contract as
    /// ``Transport/execute(_:completion:)``.
    func execute<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask

    /// The base URL requests are built against when neither the client nor the request has one:
    /// a transport that answers without a server needs none from the app. `nil` by default.
    var standInBaseURL: URL? { get }
}

extension EndpointAwareTransport {
    /// None: the client or the request names the server.
    package var standInBaseURL: URL? { nil }
}

/// A transfer in progress.
public protocol TransportTask: Sendable {
    /// Cancels the transfer; the completion reports ``TransportError/Reason/cancelled`` unless it
    /// has already been called.
    func cancel()
}

/// What a transport is asked to do: the request, its limits, where its body goes. Opaque outside
/// the package: the core's transports and the testing kit's read it.
public struct TransportRequest: Sendable {
    /// The request to send. When ``bodyFile`` is set, its `httpBody` is `nil`.
    package var urlRequest: URLRequest
    /// The connect, idle and total limits.
    package var timeouts: Timeouts
    /// The largest body accepted in memory, in bytes; a larger body fails with
    /// ``TransportError/Reason/responseTooLarge(limit:)``. Bodies written to a file are not capped.
    package var maximumResponseSize: Int
    /// The transfer's priority.
    package var priority: RequestPriority
    /// A file whose bytes are the request body, streamed with a known `Content-Length`.
    package var bodyFile: URL?
    /// Where a successful (2xx) response body is written instead of memory.
    package var download: DownloadTarget?
    /// Where an accepted response body goes as it arrives, with back-pressure, instead of being
    /// collected; `nil` (collect it) by default. See ``ResponseBodySink``.
    package var bodySink: (any ResponseBodySink)?
    /// Called with each change in bytes sent or received, on any thread.
    package var onProgress: (@Sendable (TransferProgress) -> Void)?
    /// How redirects are followed.
    package var redirectPolicy: RedirectPolicy
    /// Called once when the request goes to the transport as a transfer of its own, not when it
    /// joins an identical transfer in flight: what plugins hear as `willSend`.
    package var willStart: (@Sendable () -> Void)?
    /// What answers a `Basic` or `Digest` challenge from this request's origin, once; `nil` by
    /// default. The transports never read it: the client answers in front of them (see
    /// ``ChallengeAnsweringSender``), and the cache keys a response by it.
    package var credential: HTTPCredential?
    /// The request's own say over each redirect (``APIRequest/redirectHandler``), within
    /// ``redirectPolicy``; `nil` by default. Transports pass it to
    /// ``RedirectPolicy/decide(original:status:proposed:count:handler:head:)``.
    package var redirectHandler: (@Sendable (Redirect) -> RedirectAction)?

    /// Creates a transport request.
    @_spi(Internal) public init(
        urlRequest: URLRequest, timeouts: Timeouts = Timeouts(), maximumResponseSize: Int,
        priority: RequestPriority = .normal,
        bodyFile: URL? = nil, download: DownloadTarget? = nil,
        onProgress: (@Sendable (TransferProgress) -> Void)? = nil, redirectPolicy: RedirectPolicy = RedirectPolicy()
    ) {
        self.redirectPolicy = redirectPolicy
        self.urlRequest = urlRequest
        self.timeouts = timeouts
        self.maximumResponseSize = maximumResponseSize
        self.priority = priority
        self.bodyFile = bodyFile
        self.download = download
        self.onProgress = onProgress
    }
}

/// A file a transport writes a response body into.
@_spi(Internal) public struct DownloadTarget: Sendable {
    /// The file written. Created if missing.
    package var fileURL: URL
    /// How many bytes of the resource the file already holds (the `Range` start sent). A `206`
    /// response is appended at this offset; any other 2xx response replaces the file's content.
    package var resumeOffset: Int64
    /// Called with the response head before a 2xx body is written to the file.
    package var onResponse: (@Sendable (HTTPURLResponse) -> Void)?

    /// Creates a target.
    package init(fileURL: URL, resumeOffset: Int64 = 0, onResponse: (@Sendable (HTTPURLResponse) -> Void)? = nil) {
        self.fileURL = fileURL
        self.resumeOffset = max(0, resumeOffset)
        self.onResponse = onResponse
    }
}

/// What a transport hands back: the HTTP response head and the body, in memory or in a file.
public struct TransportResponse: Sendable {
    /// The HTTP response (after redirects).
    ///
    /// A transport that parses heads itself (``CurlTransport``) makes this `HTTPURLResponse` the
    /// first time it is read, not for every response.
    public var response: HTTPURLResponse {
        get { head.response }
        set { head = ResponseHead(newValue).replacingMetrics(head.metrics) }
    }
    /// The body, when it was kept in memory (empty when it went to a download file).
    public var data: Data
    /// The file holding the whole body, when the request had a ``TransportRequest/download``
    /// target and the response was 2xx.
    package var fileURL: URL?
    /// What the exchange took (phases, body bytes, connection), when the transport measured it;
    /// `nil` by default. Kept with the response head, so that copies of a response cost nothing
    /// more for it.
    public var metrics: TransferMetrics? {
        get { head.metrics }
        set { head = head.replacingMetrics(newValue) }
    }
    /// Status and header fields, read without making the `HTTPURLResponse`.
    var head: ResponseHead

    /// Creates a transport response.
    @_spi(Internal) public init(response: HTTPURLResponse, data: Data, fileURL: URL? = nil) {
        self.init(head: ResponseHead(response), data: data, fileURL: fileURL)
    }

    init(head: ResponseHead, data: Data, fileURL: URL? = nil) {
        self.head = head
        self.data = data
        self.fileURL = fileURL
    }
}
