import EndpointKit
import Foundation

/// An endpoint whose response is read as a stream of elements while it arrives: raw chunks,
/// lines, newline-delimited JSON, or Server-Sent Events.
///
/// It is an endpoint like any other (path, method, parameters, headers, envelope for its error
/// body), sent through the same ``/EndpointKit/APIClient``, its interceptors, authentication and retries of
/// the connection attempt; ``format`` says how the body becomes elements.
///
/// ```swift
/// struct Completions: StreamingRequest {
///     let prompt: String
///     var method: HTTPMethod { .post }
///     var path: RequestPath { "/v1/completions" }
///     var parameters: RequestParameters { .json(["prompt": .string(prompt), "stream": true]) }
///     var format: StreamFormat<ServerSentEvent> { .serverSentEvents }
/// }
///
/// for try await event in client.stream(Completions(prompt: "Hi")) {     // leaving the loop cancels
///     print(event.data)
/// }
/// ```
///
/// A status the validation does not accept (a non-2xx by default) is a ``/EndpointKit/ServerFailure`` with the
/// body, as for any request; a connection cut in the middle is a ``/EndpointKit/TransportError`` after the
/// elements already delivered. A retry (the client's retrier, an interceptor refreshing a token)
/// only happens before the first element: after that the request would deliver them again.
/// Server-Sent Events reconnect instead, as ``reconnection`` says.
public protocol StreamingRequest: APIRequest where Response == StreamSummary {
    /// The elements the body is read as.
    associatedtype Element: Sendable

    /// How the body becomes elements: ``StreamFormat/chunks``, ``StreamFormat/lines``,
    /// ``StreamFormat/ndjson(_:)`` or ``StreamFormat/serverSentEvents``.
    var format: StreamFormat<Element> { get }
    /// The most bytes held between the network and a reader that is behind: when they are
    /// held, the transfer pauses until the reader catches up. 1 MiB by default.
    var bufferSize: Int { get }
    /// How an event stream (``StreamFormat/serverSentEvents``) reconnects when the server closes it
    /// or the connection drops. ``StreamReconnection/default`` by default; other formats never
    /// reconnect.
    var reconnection: StreamReconnection { get }
}

extension StreamingRequest {
    /// 1 MiB.
    public var bufferSize: Int { 1 << 20 }
    /// ``StreamReconnection/default``.
    public var reconnection: StreamReconnection { .default }
    /// `false`: every stream has its own transfer.
    public var coalescesIdenticalRequests: Bool? { false }
    /// ``/EndpointKit/CachePolicy/disabled``: a stream is never stored or answered from the cache.
    public var cachePolicy: CachePolicy? { .disabled }

    /// An empty summary; the client fills it in when the stream ends.
    public func decode(_ context: DecodingContext) throws -> StreamSummary { StreamSummary() }
}
