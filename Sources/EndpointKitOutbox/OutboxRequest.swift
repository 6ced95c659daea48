import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt at an outbox entry, as an endpoint the client sends: the request stored at enqueue,
/// given to the client already built (``/EndpointKit/PrebuiltRequest``), so that only its interceptors
/// (a fresh token), plugins, transport and result classification act on it.
///
/// The client's retrier is not asked (``retrier`` never retries): the outbox decides when to try
/// again. Responses are checked against the envelope's business status (as an ``/EndpointKit/Empty`` response
/// is) and decoded as the registered type only when the result is handed over.
final class OutboxRequest: PrebuiltRequest {
    typealias Response = Empty

    let built: URLRequestBuilder.Built
    let method: HTTPMethod
    let connectTimeout: TimeInterval?
    let idleTimeout: TimeInterval?
    let totalTimeout: TimeInterval?

    init(record: EntryRecord, urlRequest: URLRequest, bodyFile: URL?) {
        built = URLRequestBuilder.Built(urlRequest: urlRequest, bodyFile: bodyFile)
        method = HTTPMethod(rawValue: record.method)
        connectTimeout = record.connectTimeout
        idleTimeout = record.idleTimeout
        totalTimeout = record.totalTimeout
    }

    var path: RequestPath { "" }
    var baseURL: URL? { built.urlRequest.url }
    var retrier: (any RequestRetrier)? { RetryPolicy.none }
    var coalescesIdenticalRequests: Bool? { false }
    var cachePolicy: CachePolicy? { .disabled }
}
