import EndpointKit

/// Hears a stream's elements as they arrive, on the main actor, and its end through the
/// ``/EndpointKit/APIRequestDelegate`` methods (``/EndpointKit/APIRequestDelegate/request(_:didSucceedWith:metadata:)``
/// with the ``StreamSummary``, or a failure). Held weakly: once it is gone the stream is
/// cancelled.
///
/// ```swift
/// extension FeedController: StreamingRequestDelegate {
///     func request<Request: StreamingRequest>(_ request: Request, didReceive element: Request.Element) {
///         guard let event = element as? ServerSentEvent else { return }
///         items.insert(event.data, at: 0)
///     }
///     func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {
///         banner.show(error.message)
///     }
/// }
/// client.stream(LiveFeed(), delegate: self)
/// ```
@MainActor
public protocol StreamingRequestDelegate: APIRequestDelegate {
    /// The next element of the stream, in order.
    func request<Request: StreamingRequest>(_ request: Request, didReceive element: Request.Element)
}
