import EndpointKit
import Foundation

/// One piece of a stubbed stream (``StubResponse/stream(_:status:headers:endingWith:)``): bytes
/// sent after a delay.
///
/// ```swift
/// .stream([
///     .event("hello", id: "1"),                      // text/event-stream formatting
///     .event("world", id: "2", after: 0.05),
///     .jsonLine(["id": 3]),                          // one NDJSON line
///     "raw bytes\n",                                 // a string literal
/// ])
/// ```
public struct StubStreamChunk: Sendable, ExpressibleByStringLiteral {
    /// The bytes.
    public var data: Data
    /// Seconds to wait before sending them (after the head, or after the chunk before).
    public var delay: TimeInterval

    /// A chunk of bytes.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - delay: Seconds to wait before them; 0 by default.
    public init(_ data: Data, after delay: TimeInterval = 0) {
        self.data = data
        self.delay = max(0, delay)
    }

    /// A chunk of UTF-8 text.
    /// - Parameters:
    ///   - text: The text.
    ///   - delay: Seconds to wait before it; 0 by default.
    public init(_ text: String, after delay: TimeInterval = 0) {
        self.init(Data(text.utf8), after: delay)
    }

    /// A chunk of UTF-8 text, sent at once.
    public init(stringLiteral text: String) {
        self.init(text)
    }

    /// A Server-Sent Event in the `text/event-stream` format, ending with its blank line.
    /// - Parameters:
    ///   - data: The data; each line becomes a `data:` line.
    ///   - id: The `id` field; none by default.
    ///   - event: The `event` field (the type); none by default.
    ///   - retry: The `retry` field, in seconds; none by default.
    ///   - delay: Seconds to wait before it; 0 by default.
    public static func event(
        _ data: String, id: String? = nil, event: String? = nil, retry: TimeInterval? = nil,
        after delay: TimeInterval = 0
    ) -> StubStreamChunk {
        var text = ""
        if let event { text += "event: \(event)\n" }
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(Int((retry * 1000).rounded()))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return StubStreamChunk(text + "\n", after: delay)
    }

    /// A JSON value as one newline-delimited JSON line.
    /// - Parameters:
    ///   - value: The value, written with sorted keys.
    ///   - delay: Seconds to wait before it; 0 by default.
    public static func jsonLine(_ value: JSONValue, after delay: TimeInterval = 0) -> StubStreamChunk {
        StubStreamChunk(value.description + "\n", after: delay)
    }
}
