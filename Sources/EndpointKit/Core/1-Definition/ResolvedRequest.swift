import Foundation

/// One send's view of its request: every member the path reads, read once when the send starts,
/// with the client's configuration filling in what the request leaves to it.
///
/// The first step of every send. Later steps (building, sending, processing, retrying) read this
/// value instead of the request, so an endpoint's members are evaluated once per send, in one
/// place, whatever the number of attempts.
///
/// Not generic over the endpoint's type (the send keeps the endpoint beside it): the path reads
/// its members in code that is not specialized for the app's types, and a generic value there
/// would look up its type metadata at run time at every step. A class, so that handing it on (to
/// the execution, the builder, each attempt's response processing) is one retain, not a copy of
/// its twenty members.
final class ResolvedRequest: Sendable {
    let method: HTTPMethod
    /// The request's base URL override, or `nil` for the client's.
    let baseURL: URL?
    let path: RequestPath
    let parameters: RequestParameters
    let headers: HTTPHeaders
    /// The encoder for `Encodable` bodies: the request's, else the client's.
    let encoder: JSONEncoder
    /// The client's limits with the request's overrides applied.
    let timeouts: Timeouts
    /// The idle limit, for `URLRequest.timeoutInterval`, or `nil` for none.
    let idleLimit: TimeInterval?
    let priority: RequestPriority
    let tag: String?
    /// The endpoint's type (a subclass's own for a ``BaseRequest``), which handles and plugins
    /// name (`"GetUser"`) when asked.
    let endpointType: Any.Type
    /// The request's send information; what the send site adds is merged in when a context is made.
    let sendInfo: SendInfo
    /// Asked last whether a failed attempt is sent again: the request's own, else the client's.
    let retrier: (any RequestRetrier)?
    /// The request's own interceptors, run after the client's (which are a stage).
    let interceptors: [any RequestInterceptor]
    /// Whether attempts share identical transfers in flight: the request's choice, else the client's
    /// (for `GET` and `HEAD`).
    let coalesces: Bool
    let validation: ResponseValidation
    /// The client's check of every response (``APIClient/Configuration/validator``).
    let validator: (@Sendable (ResponseMetadata) throws -> Void)?
    let envelope: any ResponseEnvelope
    let decoder: JSONDecoder
    /// The request as a feature built and kept it earlier, sent again as it was built.
    let prebuilt: URLRequestBuilder.Built?
    /// What answers `Basic` and `Digest` challenges: the request's own, else the client's.
    private let credential: HTTPCredential?
    /// Whether ``credential`` is the client's, which goes only to its base URL's origin.
    private let credentialIsClients: Bool
    /// The request's own say over each redirect, or `nil` (the client's policy alone).
    let redirectHandler: (@Sendable (Redirect) -> RedirectAction)?

    /// `configuration` is borrowed, not copied (an initializer's parameters are otherwise taken
    /// as owned): the fields used are read out of it first, since `??` cannot capture it.
    init<Request: APIRequest>(_ request: Request, configuration: borrowing APIClient.Configuration) {
        let (clientEncoder, clientRetrier, clientCoalesces) =
            (configuration.encoder, configuration.retrier, configuration.coalescesIdenticalRequests)
        let (clientValidation, clientEnvelope, clientDecoder, clientValidator) =
            (configuration.validation, configuration.envelope, configuration.decoder, configuration.validator)
        let clientCredential = configuration.credential
        let method = request.method
        self.method = method
        baseURL = request.baseURL
        path = request.path
        parameters = request.parameters
        headers = request.headers
        encoder = request.encoder ?? clientEncoder
        timeouts = request.timeouts(overriding: configuration.timeouts)
        idleLimit = timeouts.idleLimit
        priority = request.priority
        tag = request.tag
        // `type(of:)` names a subclass, not its base; the handle turns it into text when asked.
        endpointType = type(of: request)
        sendInfo = request.sendInfo
        retrier = request.retrier ?? clientRetrier
        interceptors = request.interceptors
        coalesces = request.coalescesIdenticalRequests ?? (clientCoalesces && (method == .get || method == .head))
        validation = request.validation ?? clientValidation
        validator = clientValidator
        envelope = request.envelope ?? clientEnvelope
        decoder = request.decoder ?? clientDecoder
        // Only classes adopt PrebuiltRequest: no conformance lookup for the struct endpoints.
        prebuilt = Request.self is AnyClass ? (request as? any PrebuiltRequest)?.built : nil
        let ownCredential = request.credential
        credential = ownCredential ?? clientCredential
        credentialIsClients = ownCredential == nil
        redirectHandler = request.redirectHandler
    }

    /// Whether the request or the client has a credential (then ``credential(for:clientBaseURL:)``
    /// says whether an attempt carries it).
    var hasCredential: Bool { credential != nil }

    /// The credential an attempt sent to `url` carries: the request's own, or the client's when
    /// `url` is on the origin of the client's `baseURL`.
    func credential(for url: URL?, clientBaseURL: URL?) -> HTTPCredential? {
        guard let credential else { return nil }
        guard credentialIsClients else { return credential }
        guard let url, let clientBaseURL, RedirectPolicy.sameOrigin(url, clientBaseURL) else { return nil }
        return credential
    }
}

extension APIRequest {
    /// The limits this request is sent with: `limits` (the client's) with this request's
    /// ``connectTimeout``, ``idleTimeout`` and ``totalTimeout`` applied.
    package func timeouts(overriding limits: Timeouts) -> Timeouts {
        var resolved = limits
        if let connect = connectTimeout { resolved.connect = connect }
        if let idle = idleTimeout { resolved.idle = idle }
        if let total = totalTimeout { resolved.total = total > 0 ? total : nil }
        return resolved
    }
}
