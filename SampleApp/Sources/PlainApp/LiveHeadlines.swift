import EndpointKit
import EndpointKitStreaming

/// Breaking headlines as Server-Sent Events, each event's data decoded as a ``Headline``. The
/// stream reconnects when the server closes it, until the server answers a reconnection with
/// `204 No Content`: its way to say "that was all", which ends the stream with a server failure
/// of status 204 (see ``isEndOfHeadlines(_:)``).
struct LiveHeadlines: StreamingRequest {
    var path: RequestPath { "/live" }
    var format: StreamFormat<Headline> { .serverSentEvents { try $0.decodeData(as: Headline.self) } }

    /// Whether a failure is the server's "stop" (204) rather than a broken stream.
    static func isEndOfHeadlines(_ failure: ServerFailure) -> Bool {
        failure.statusCode == 204
    }
}
