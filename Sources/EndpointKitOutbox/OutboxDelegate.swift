import EndpointKit

/// Hears every ``Outbox`` result on the main actor, as ``Outbox/onResult(_:)`` does. Held weakly.
@MainActor
public protocol OutboxDelegate: AnyObject {
    /// An entry ended: sent, refused, dead-lettered, or found damaged.
    func outbox(_ outbox: Outbox, didFinish result: OutboxResult)
}
