/// Hears how requests end, in three methods: success, a "no" from the server, or no usable
/// answer. Every method has an empty default, so adopt only what you need.
///
/// Each method receives the request itself, so one controller can tell several requests apart
/// (`if request is GetUser`, or `===` for ``BaseRequest`` instances). Delegates are held weakly
/// and always called on the main actor, after the request's completion closure has returned: in
/// the same turn of the main queue, or in a later one after the closure of the `on:` form.
///
/// Cancelled requests are reported to ``request(_:didFailInTransport:)`` with reason
/// ``TransportError/Reason/cancelled``.
@MainActor
public protocol APIRequestDelegate: AnyObject {
    /// The request succeeded and its response decoded.
    func request<Request: APIRequest>(
        _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata)
    /// The server answered "no" (HTTP status or business status).
    func request<Request: APIRequest>(_ request: Request, didFailOnServer failure: ServerFailure)
    /// No usable answer: timeout, offline, cancelled, TLS, malformed or undecodable response.
    func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError)
}

extension APIRequestDelegate {
    /// Does nothing.
    public func request<Request: APIRequest>(
        _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
    ) {}
    /// Does nothing.
    public func request<Request: APIRequest>(_ request: Request, didFailOnServer failure: ServerFailure) {}
    /// Does nothing.
    public func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {}
}

extension APIRequestDelegate {
    /// Calls the method that matches `result`.
    package func receive<Request: APIRequest>(_ result: APIResult<Request.Response>, for request: Request) {
        switch result {
        case .success(let value, let metadata): self.request(request, didSucceedWith: value, metadata: metadata)
        case .serverFailure(let failure): self.request(request, didFailOnServer: failure)
        case .transportError(let error): self.request(request, didFailInTransport: error)
        }
    }
}
