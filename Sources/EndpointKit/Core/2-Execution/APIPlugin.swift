import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Observes requests as they go: before each attempt is sent, when each attempt's response (or
/// error) arrives, and once when the request completes. Like YTKNetwork's accessories and Moya's
/// plugins.
///
/// Every method has an empty default. Hooks run on internal queues, synchronously in the
/// request's path: keep them fast, and hop to the main queue for UI work.
public protocol APIPlugin: Sendable {
    /// An attempt is about to go on the wire (after interceptors adapted it). Not called for a
    /// coalesced send that joins an identical request in flight, nor for an attempt the cache
    /// answers: counting these counts the requests the server receives.
    func willSend(_ request: URLRequest, context: RequestContext)
    /// An attempt ended: a response, or a transport error.
    func didReceive(
        _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext)
    /// The request completed (after any retries), also when cancelled or never sent.
    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext)
}

extension APIPlugin {
    /// Does nothing.
    public func willSend(_ request: URLRequest, context: RequestContext) {}
    /// Does nothing.
    public func didReceive(
        _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext
    ) {}
    /// Does nothing.
    public func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {}
}
