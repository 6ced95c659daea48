import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint: where a request goes, what it sends, and what comes back.
///
/// Each endpoint is a type. Only ``path`` is required; every other member has a default, so a
/// `GET` endpoint is a few lines:
///
/// ```swift
/// struct GetUser: APIRequest {
///     typealias Response = User        // any Decodable & Sendable model
///     let id: Int
///     var path: RequestPath { "/users/\(id)" }
/// }
/// ```
///
/// Members left out fall back to the ``APIClient`` configuration (base URL, timeouts, envelope,
/// decoder, validation). For subclassing instead of conforming, see ``BaseRequest``.
public protocol APIRequest: Sendable {
    /// The value a successful response decodes to.
    associatedtype Response: Sendable

    /// A base URL for this request only, overriding the client's. `nil` by default.
    var baseURL: URL? { get }
    /// The path relative to the base URL; interpolated values are escaped as single segments.
    var path: RequestPath { get }
    /// The HTTP method. `GET` by default.
    var method: HTTPMethod { get }
    /// Query parameters and body. None by default.
    var parameters: RequestParameters { get }
    /// Header fields, set on top of the client's default headers. None by default.
    var headers: HTTPHeaders { get }
    /// The longest wait for a connection in seconds, overriding the client's
    /// (``Timeouts/connect``). `nil` by default.
    var connectTimeout: TimeInterval? { get }
    /// The longest time without a byte sent or received in seconds, overriding the client's
    /// (``Timeouts/idle``; YTKNetwork's `requestTimeoutInterval`). `nil` by default.
    var idleTimeout: TimeInterval? { get }
    /// The total deadline in seconds, overriding the client's (``Timeouts/total``); 0 or less for
    /// none. `nil` by default.
    var totalTimeout: TimeInterval? { get }
    /// The envelope, overriding the client's. `nil` by default.
    var envelope: (any ResponseEnvelope)? { get }
    /// The JSON decoder, overriding the client's. `nil` by default.
    var decoder: JSONDecoder? { get }
    /// The JSON encoder for `Encodable` bodies, overriding the client's. `nil` by default.
    var encoder: JSONEncoder? { get }
    /// Acceptable status codes and content types, overriding the client's. `nil` by default.
    var validation: ResponseValidation? { get }
    /// A label for cancelling groups of requests (``APIClient/cancelRequests(tagged:)``). `nil`
    /// by default.
    var tag: String? { get }
    /// Decides retries last for this request, in place of the client's
    /// ``APIClient/Configuration/retrier``; a policy that never retries opts out. `nil` by default.
    var retrier: (any RequestRetrier)? { get }
    /// This request's own interceptors (Alamofire's `session.request(_:interceptor:)`): each
    /// adapts every attempt after the client's ``APIClient/Configuration/interceptors``, and each
    /// is asked about a failed attempt after them and before the retrier. None by default.
    var interceptors: [any RequestInterceptor] { get }
    /// The priority of the transfer. ``RequestPriority/normal`` by default.
    var priority: RequestPriority { get }
    /// How this request uses the client's response cache, overriding the client's default
    /// policy. `nil` by default.
    var cachePolicy: CachePolicy? { get }
    /// Whether this request shares one network call with identical requests in flight (same
    /// endpoint type, method, URL, headers and body); each caller still gets its own result.
    /// `nil` by default: the client's ``APIClient/Configuration/coalescesIdenticalRequests``
    /// decides (off unless turned on, then for `GET` and `HEAD`).
    var coalescesIdenticalRequests: Bool? { get }
    /// What every send of this request tells interceptors and plugins (``RequestContext/info``),
    /// such as feedback switches; a send site's `info:` adds to it and wins. Empty by default.
    var sendInfo: SendInfo { get }
    /// The user name and password that answer a `Basic` or `Digest` challenge (a `401` with
    /// `WWW-Authenticate`) from this request's own origin, once; see ``HTTPCredential``. `nil` by
    /// default: the client's ``APIClient/Configuration/credential``, if this request goes to the
    /// client's base URL's origin.
    var credential: HTTPCredential? { get }
    /// Decides each redirect of this request (Alamofire's `Redirector`): follow it, stop at the
    /// redirect response, or send another request, within the client's
    /// ``APIClient/Configuration/redirectPolicy`` (its hop limit always applies). `nil` by
    /// default: the policy decides alone.
    ///
    /// The closure sees the redirect response and the request the client would send next, with
    /// the safety rules applied (see ``Redirect``). A request it returns with
    /// ``RedirectAction/send(_:)`` goes through the same rules again; only
    /// ``RedirectAction/sendUnchecked(_:)`` keeps `Authorization` and cookies on another origin
    /// or goes from `https` to `http`. It runs on the transport's thread while the transfer
    /// waits: keep it quick. A request with a handler never shares a transfer with identical
    /// requests in flight (``coalescesIdenticalRequests``).
    ///
    /// ```swift
    /// struct Download: APIRequest {
    ///     typealias Response = Data
    ///     var path: RequestPath { "/files/7" }
    ///     var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? {
    ///         { redirect in
    ///             guard redirect.next.url?.host == "cdn.example.com" else { return .stop }
    ///             var next = redirect.next
    ///             next.setValue("files", forHTTPHeaderField: "X-Client")
    ///             return .send(next)
    ///         }
    ///     }
    /// }
    /// ```
    var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { get }

    /// Transforms the raw body before validation and decoding, for example to decrypt it or to
    /// strip an anti-JSON-hijacking prefix. Returns the body unchanged by default.
    /// - Parameters:
    ///   - data: The raw body.
    ///   - metadata: The response: status, headers (``ResponseMetadata/header(_:)``), the request.
    /// - Throws: Any error; the request then fails with ``TransportError/Reason/decodingFailed``.
    func transformBody(_ data: Data, metadata: ResponseMetadata) throws -> Data

    /// Checks a response after the status and content-type rules (``ResponseValidation``) and
    /// before decoding: the request as sent, the response head and the body are in `response`
    /// (Alamofire's `.validate { request, response, data in }`). Accepts every response by default.
    /// - Parameter response: The request as sent (``ResponseMetadata/request``), the status, the
    ///   headers and the body (``ResponseMetadata/data``).
    /// - Throws: ``BusinessFailure`` to answer a ``ServerFailure`` (kind
    ///   ``ServerFailure/Kind/businessStatus``); any other error makes the result a
    ///   ``TransportError`` with reason ``TransportError/Reason/badResponse``, the error kept as its
    ///   ``TransportError/underlyingError``.
    func validate(_ response: ResponseMetadata) throws

    /// Turns a validated response into the response value.
    ///
    /// The default, for `Decodable` responses, is ``DecodingContext/decodeDefault(_:)``: raw
    /// `Data`, `String`, ``Empty``, or the payload of the envelope. Implement it to decode in
    /// another way (XML, a decrypted body, a non-`Decodable` model).
    /// - Throws: ``BusinessFailure`` to report a "no" from the server; any other error is a
    ///   decoding failure.
    func decode(_ context: DecodingContext) throws -> Response
}

extension APIRequest {
    /// `nil`: the client's base URL.
    public var baseURL: URL? { nil }
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No parameters.
    public var parameters: RequestParameters { .none }
    /// No extra headers.
    public var headers: HTTPHeaders { .empty }
    /// `nil`: the client's connect timeout.
    public var connectTimeout: TimeInterval? { nil }
    /// `nil`: the client's idle timeout.
    public var idleTimeout: TimeInterval? { nil }
    /// `nil`: the client's total timeout.
    public var totalTimeout: TimeInterval? { nil }
    /// `nil`: the client's envelope.
    public var envelope: (any ResponseEnvelope)? { nil }
    /// `nil`: the client's decoder.
    public var decoder: JSONDecoder? { nil }
    /// `nil`: the client's encoder.
    public var encoder: JSONEncoder? { nil }
    /// `nil`: the client's validation.
    public var validation: ResponseValidation? { nil }
    /// No tag.
    public var tag: String? { nil }
    /// `nil`: the client's retry policy.
    public var retrier: (any RequestRetrier)? { nil }
    /// None: only the client's interceptors.
    public var interceptors: [any RequestInterceptor] { [] }
    /// ``RequestPriority/normal``.
    public var priority: RequestPriority { .normal }
    /// `nil`: the client's default cache policy.
    public var cachePolicy: CachePolicy? { nil }
    /// `nil`: the client's setting.
    public var coalescesIdenticalRequests: Bool? { nil }
    /// Empty.
    public var sendInfo: SendInfo { .empty }
    /// `nil`: the client's credential, for its base URL's origin only.
    public var credential: HTTPCredential? { nil }
    /// `nil`: the client's ``RedirectPolicy`` decides alone.
    public var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { nil }
    /// Returns `data` unchanged.
    public func transformBody(_ data: Data, metadata: ResponseMetadata) throws -> Data { data }
    /// Accepts every response.
    public func validate(_ response: ResponseMetadata) throws {}
}

extension APIRequest where Response: Decodable {
    /// Decodes with ``DecodingContext/decodeDefault(_:)``.
    public func decode(_ context: DecodingContext) throws -> Response {
        try context.decodeDefault(Response.self)
    }
}
