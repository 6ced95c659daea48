import EndpointKit
import Foundation

/// A request stored in an ``Outbox``: waiting to be sent (``Outbox/pending``) or refused by the
/// server and kept for the app to deal with (``Outbox/deadLetters``).
public struct OutboxEntry: Sendable, Identifiable {
    /// An entry's identifier, given by `enqueue(_:kind:lane:)` and carried by its result.
    /// It is `Codable` and converts to and from a string, so the app can keep it with its own
    /// data (a draft comment) and match the result after a relaunch.
    public struct ID: Hashable, Sendable, Codable, LosslessStringConvertible {
        let uuid: UUID

        init(_ uuid: UUID) { self.uuid = uuid }

        /// The identifier written by ``description``, or `nil` for any other text.
        public init?(_ description: String) {
            guard let uuid = UUID(uuidString: description) else { return nil }
            self.uuid = uuid
        }

        /// The identifier as text (a UUID).
        public var description: String { uuid.uuidString }

        /// Decodes the text form.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let uuid = UUID(uuidString: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "Not an outbox entry identifier: \(text)"))
            }
            self.uuid = uuid
        }

        /// Encodes the text form.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    /// The identifier.
    public let id: ID
    /// What the app called this kind of entry at enqueue (`"comment"`, `"order"`); results carry it.
    public let kind: String
    /// The lane: entries of one lane are sent one at a time, in order.
    public let lane: String
    /// The `Idempotency-Key` every attempt sends.
    public let idempotencyKey: String
    /// The HTTP method.
    public let method: HTTPMethod
    /// The URL, as the client built it.
    public let url: URL?
    /// When it was enqueued.
    public let enqueuedAt: Date
    /// For a dead letter, why the server refused it (or what made retrying pointless); `nil` for an
    /// entry still waiting.
    public let failure: APIFailure?

    init(_ record: EntryRecord) {
        id = ID(record.id)
        kind = record.kind
        lane = record.lane
        idempotencyKey = record.idempotencyKey
        method = HTTPMethod(rawValue: record.method)
        url = URL(string: record.url)
        enqueuedAt = record.enqueuedAt
        failure = record.deadLetter?.failure
    }
}
