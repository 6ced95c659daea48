import Foundation

/// A feature of a client: gives each send the stage it needs, if any.
protocol ClientFeature: Sendable {
    /// The stage for one send of `request`, or `nil` when the feature does not apply to it.
    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)?
}

/// What one send asks of the client beyond its request.
struct SendOptions: Sendable {
    /// Replaces the cache mode of the request's ``CachePolicy``.
    var cacheMode: CachePolicy.Mode?
    /// Whether the transfer's progress is published: the caller holds the send's handle (an
    /// awaited send, or one inside a batch or chain, has no handle of its own to read it from).
    var reportsProgress = true
    /// What the send site adds to the request's ``APIRequest/sendInfo``.
    var info = SendInfo()
    /// Where a streamed response body goes, for a send whose body is not collected; a feature
    /// gives each attempt's transport its ``TransportRequest/bodySink``.
    var bodyStream: (any BodyStreamSource)?

    static let none = SendOptions()
}

/// The destination of a send's streamed response bodies, attempt after attempt (see
/// ``SendOptions/bodyStream``): opaque to the core, which only carries it to the features.
protocol BodyStreamSource: AnyObject, Sendable {}
