import EndpointKit
import Foundation

/// One Server-Sent Event (`text/event-stream`), as dispatched by `ServerSentEventParser`.
///
/// ```swift
/// for try await event in client.stream(Completions(prompt: "Hi")) {
///     guard event.event == "delta" else { continue }
///     let delta = try event.decodeData(as: Delta.self)      // `data:` holds JSON
///     text += delta.content
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The type: the block's `event` field, or `"message"` when it had none.
    public var event: String
    /// The block's `data` lines joined with `"\n"`.
    public var data: String
    /// The last event ID when the event was dispatched: this block's `id` field, or an earlier
    /// one's; `nil` while there is none (or after an empty `id` reset it).
    public var id: String?
    /// The reconnection time a `retry` field of this block set, in seconds, if it had one.
    public var retry: TimeInterval?

    /// Creates an event.
    /// - Parameters:
    ///   - event: The type; `"message"` by default.
    ///   - data: The data.
    ///   - id: The last event ID; `nil` by default.
    ///   - retry: The reconnection time this event set, in seconds; `nil` by default.
    public init(event: String = "message", data: String, id: String? = nil, retry: TimeInterval? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Decodes ``data`` as JSON.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Throws: The decoder's `DecodingError`.
    public func decodeData<Value: Decodable>(
        as type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        try decoder.decode(Value.self, from: Data(data.utf8))
    }
}
