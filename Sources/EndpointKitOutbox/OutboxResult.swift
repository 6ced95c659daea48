import EndpointKit
import Foundation

/// How an ``Outbox`` entry ended, told once to the app (``Outbox/results``, ``Outbox/onResult(_:)``,
/// ``OutboxDelegate``), also when it ended while the app was not listening or in an earlier launch.
///
/// ```swift
/// for await result in outbox.results {
///     switch result.outcome {
///     case .succeeded(let response): markSent(result.entryID, comment: response.value(as: Comment.self))
///     case .failedOnServer(let failure): showRefusal(result.entryID, failure.message)
///     case .deadLettered(let failure): showNeedsAttention(result.entryID, failure)
///     case .damaged(let file, _): log("an outbox file was damaged: \(file.path)")
///     }
/// }
/// ```
public struct OutboxResult: Sendable {
    /// What became of the entry.
    public enum Outcome: Sendable {
        /// The server accepted it: a status the client's validation accepts (and a business
        /// success, with an envelope). The entry is gone from the outbox.
        case succeeded(OutboxResponse)
        /// The server answered with an accepted status but its envelope said "no"
        /// (``/EndpointKit/ServerFailure/Kind/businessStatus``). A server that honours the idempotency key
        /// answers every retry the same way, so the entry is gone: enqueue a corrected one.
        case failedOnServer(ServerFailure)
        /// The server refused it (a 4xx other than those retried, see
        /// ``Outbox/Configuration/retriedStatusCodes``), or the exchange failed in a way retrying
        /// cannot mend (TLS, redirects, a response too large). The entry is in
        /// ``Outbox/deadLetters``: retry it once the cause is fixed, or discard it.
        case deadLettered(APIFailure)
        /// The entry's file was damaged (cut short or altered on disk): it was moved to `file` and
        /// will not be sent. `reason` says what was wrong. ``OutboxResult/kind`` is empty, since
        /// the file cannot be trusted to say.
        case damaged(file: URL, reason: String)
    }

    /// The entry's identifier, as `enqueue(_:kind:lane:)` returned it.
    public let entryID: OutboxEntry.ID
    /// The kind given at enqueue.
    public let kind: String
    /// What became of the entry.
    public let outcome: Outcome
}

/// The server's answer to an entry that ``OutboxResult/Outcome/succeeded(_:)``.
public struct OutboxResponse: Sendable {
    /// Status, headers and raw body.
    public let metadata: ResponseMetadata
    /// The body decoded as the type registered for the entry's kind
    /// (``Outbox/register(_:forKind:)``); `nil` when none is registered or it did not decode.
    public let value: (any Sendable)?
    /// Why the body did not decode as the registered type, if it did not.
    public let decodingError: TransportError?

    /// ``value`` as `type`, or `nil` when it is not one.
    public func value<Value>(as type: Value.Type) -> Value? { value as? Value }
}
