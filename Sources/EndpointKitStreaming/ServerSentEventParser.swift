@_spi(Internal) import EndpointKit
import Foundation

/// Parses a `text/event-stream` body into ``ServerSentEvent``s by the WHATWG rules, chunk by
/// chunk: a pure value with no I/O, which the streaming requests use and which works on its own.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = try parser.parse(Data("id: 7\nevent: tick\ndata: {\"n\":1}\n\n".utf8))
/// // [ServerSentEvent(event: "tick", data: "{\"n\":1}", id: "7")]; parser.lastEventID == "7"
/// ```
///
/// The rules (HTML Living Standard, "Parsing an event stream"):
/// - lines end in LF, CR or CRLF, also when a chunk ends between the CR and the LF;
/// - one leading byte order mark is ignored; bytes are read as UTF-8 (invalid ones replaced);
/// - a line starting with `:` is a comment; `name: value` drops one space after the colon; a line
///   without a colon is a field with an empty value; unknown fields are ignored;
/// - `data` lines are joined with LF; `event` sets the type (`"message"` otherwise); `id` sets the
///   last event ID unless the value holds NUL; `retry` sets the reconnection time only when the
///   value is all ASCII digits;
/// - a blank line dispatches the block: it commits the last event ID and gives an event unless
///   the block had no `data`;
/// - a block the input ends in (no blank line after it) gives no event (``finish()``).
package struct ServerSentEventParser: Sendable {
    /// The last event ID committed by a dispatched block (the `Last-Event-ID` to reconnect with);
    /// empty while there is none.
    package private(set) var lastEventID: String
    /// The reconnection time from the last valid `retry` field, in seconds.
    package private(set) var reconnectionTime: TimeInterval?
    /// The most bytes a line or an event's data may hold.
    package let maximumEventSize: Int

    private var lines: LineSplitter
    private var isAtStart = true
    private var data: [UInt8] = []
    private var eventType = ""
    /// The `id` of the block being read, committed to ``lastEventID`` when it is dispatched.
    private var idBuffer: String
    private var blockRetry: TimeInterval?

    /// Creates a parser.
    /// - Parameters:
    ///   - lastEventID: The last event ID to start from, for example the one a reconnection sent;
    ///     empty by default.
    ///   - reconnectionTime: The reconnection time to start from, in seconds; `nil` by default.
    ///   - maximumEventSize: The most bytes a line or an event's data may hold; 16 MiB by default.
    package init(lastEventID: String = "", reconnectionTime: TimeInterval? = nil, maximumEventSize: Int = 16 << 20) {
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
        self.maximumEventSize = maximumEventSize
        idBuffer = lastEventID
        lines = LineSplitter(limit: maximumEventSize)
    }

    /// Reads the next bytes of the stream.
    /// - Returns: The events the bytes complete, in order.
    /// - Throws: ``/EndpointKit/TransportError`` with
    ///   ``/EndpointKit/TransportError/Reason/responseTooLarge(limit:)`` when a line or an event's
    ///   data passes ``maximumEventSize``.
    package mutating func parse(_ bytes: UnsafeRawBufferPointer) throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        // The splitter is moved out while it calls back into this parser.
        var splitter = LineSplitter(limit: 0)
        swap(&splitter, &lines)
        defer { swap(&splitter, &lines) }
        try splitter.split(bytes) { line in
            if let event = try process(line) { events.append(event) }
        }
        return events
    }

    /// Reads the next bytes of the stream; see ``parse(_:)-(UnsafeRawBufferPointer)``.
    package mutating func parse(_ data: Data) throws -> [ServerSentEvent] {
        try data.withUnsafeBytes { try parse($0) }
    }

    /// The stream ended (or the connection was cut): the block being read is dropped without an
    /// event, and the parser starts over for a new stream, keeping ``lastEventID`` and
    /// ``reconnectionTime``.
    package mutating func finish() {
        lines.reset()
        isAtStart = true
        data = []
        eventType = ""
        idBuffer = lastEventID
        blockRetry = nil
    }

    private mutating func process(_ whole: UnsafeRawBufferPointer) throws -> ServerSentEvent? {
        var line = Slice(base: whole, bounds: whole.startIndex..<whole.endIndex)
        if isAtStart {
            isAtStart = false
            if line.starts(with: Self.byteOrderMark) { line = line.dropFirst(Self.byteOrderMark.count) }
        }
        guard let first = line.first else { return dispatch() }
        guard first != Self.colon else { return nil }
        let name: Slice<UnsafeRawBufferPointer>
        var value: Slice<UnsafeRawBufferPointer>
        if let colon = line.firstIndex(of: Self.colon) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
        } else {
            name = line
            value = line[line.endIndex...]
        }
        if name.elementsEqual(Self.dataField) {
            guard data.count + value.count + 1 <= maximumEventSize else {
                throw TransportError(
                    .responseTooLarge(limit: maximumEventSize),
                    message: "An event's data is longer than \(maximumEventSize) bytes.")
            }
            data.append(contentsOf: value)
            data.append(LineSplitter.lf)
        } else if name.elementsEqual(Self.eventField) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual(Self.idField) {
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual(Self.retryField) {
            if !value.isEmpty, value.allSatisfy({ $0 >= Self.zero && $0 <= Self.nine }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                reconnectionTime = TimeInterval(milliseconds) / 1000
                blockRetry = reconnectionTime
            }
        }
        return nil
    }

    /// A blank line: commits the last event ID, and makes the event unless the block had no data.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: data.capacity <= 64 << 10)
            eventType = ""
            blockRetry = nil
        }
        guard !data.isEmpty else { return nil }
        data.removeLast()
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
            id: lastEventID.isEmpty ? nil : lastEventID, retry: blockRetry)
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let dataField = Array("data".utf8)
    private static let eventField = Array("event".utf8)
    private static let idField = Array("id".utf8)
    private static let retryField = Array("retry".utf8)
    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")
}
