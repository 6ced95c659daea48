import EndpointKit
import Foundation

/// How a streamed body becomes elements (``StreamingRequest/format``).
///
/// ```swift
/// var format: StreamFormat<Data> { .chunks }                        // bytes as they come
/// var format: StreamFormat<String> { .lines }                        // a log tail
/// var format: StreamFormat<LogEntry> { .ndjson(LogEntry.self) }      // one JSON value a line
/// var format: StreamFormat<ServerSentEvent> { .serverSentEvents }    // text/event-stream
/// var format: StreamFormat<Delta> { .serverSentEvents { try $0.decodeData(as: Delta.self) } }
/// ```
///
/// The body is cut into pieces (chunks, lines, events) as it arrives, on the transport's thread;
/// each piece becomes an element on the reader's side, so decoding runs where the reader runs and
/// a slow decoder holds the transfer back like a slow reader.
public struct StreamFormat<Element: Sendable>: Sendable {
    /// How the body is cut.
    let framing: StreamFraming
    /// Turns a piece into an element; `nil` skips it.
    let element: @Sendable (StreamFrame, JSONDecoder) throws -> Element?

    init(framing: StreamFraming, element: @escaping @Sendable (StreamFrame, JSONDecoder) throws -> Element?) {
        self.framing = framing
        self.element = element
    }

    /// The same pieces turned into other elements; an error thrown ends the stream with
    /// ``/EndpointKit/TransportError/Reason/decodingFailed``.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Other) -> StreamFormat<Other>
    {
        let element = self.element
        return StreamFormat<Other>(framing: framing) { frame, decoder in
            try element(frame, decoder).map(transform)
        }
    }

    /// Whether the body is a `text/event-stream` (reconnects, `Last-Event-ID`).
    var isEventStream: Bool { framing == .events }
}

extension StreamFormat where Element == Data {
    /// The body's bytes in the pieces the transport reads them (up to 16 KiB with libcurl).
    public static var chunks: StreamFormat<Data> {
        StreamFormat(framing: .chunks) { frame, _ in frame.bytes }
    }
}

extension StreamFormat where Element == String {
    /// The body's lines as UTF-8 text (invalid bytes replaced), without their line ends (LF, CR or
    /// CRLF); a last line without a line end counts when the body ends normally.
    public static var lines: StreamFormat<String> {
        StreamFormat(framing: .lines) { frame, _ in frame.bytes.map { String(decoding: $0, as: UTF8.self) } }
    }
}

extension StreamFormat where Element == ServerSentEvent {
    /// Server-Sent Events, parsed by the WHATWG rules (see `ServerSentEventParser`). The stream
    /// reconnects as ``StreamingRequest/reconnection`` says.
    public static var serverSentEvents: StreamFormat<ServerSentEvent> {
        StreamFormat(framing: .events) { frame, _ in frame.event }
    }
}

extension StreamFormat {
    /// Server-Sent Events, each turned into an element by `transform` (for example its JSON
    /// data decoded); an error thrown ends the stream with
    /// ``/EndpointKit/TransportError/Reason/decodingFailed``.
    public static func serverSentEvents(
        _ transform: @escaping @Sendable (ServerSentEvent) throws -> Element
    ) -> StreamFormat<Element> {
        StreamFormat<ServerSentEvent>.serverSentEvents.map(transform)
    }

    /// The body's lines, each turned into an element by `transform`; an error thrown ends the
    /// stream with ``/EndpointKit/TransportError/Reason/decodingFailed``.
    public static func lines(_ transform: @escaping @Sendable (String) throws -> Element) -> StreamFormat<Element> {
        StreamFormat<String>.lines.map(transform)
    }
}

extension StreamFormat where Element: Decodable {
    /// Newline-delimited JSON (NDJSON, JSON Lines): each line decoded as `type` with the request's
    /// decoder (or the client's); blank lines are skipped.
    public static func ndjson(_ type: Element.Type = Element.self) -> StreamFormat<Element> {
        StreamFormat(framing: .lines) { frame, decoder in
            guard let line = frame.bytes, line.contains(where: { !Self.isJSONSpace($0) }) else { return nil }
            return try decoder.decode(Element.self, from: line)
        }
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
