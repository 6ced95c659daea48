import EndpointKit
import Foundation

/// How a streamed body is cut into pieces before they become elements.
enum StreamFraming: Sendable, Hashable {
    /// As the transport reads it.
    case chunks
    /// At LF, CR or CRLF.
    case lines
    /// Into Server-Sent Events.
    case events
}

/// One piece of a streamed body, waiting in the buffer for the reader.
enum StreamFrame: Sendable {
    /// A chunk or a line.
    case bytes(Data)
    /// A dispatched event.
    case event(ServerSentEvent)

    var bytes: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    var event: ServerSentEvent? {
        if case .event(let event) = self { return event }
        return nil
    }

    /// What the piece counts for against the buffer's size.
    var size: Int {
        switch self {
        case .bytes(let data): return data.count + 16
        case .event(let event): return event.data.utf8.count + event.event.utf8.count + (event.id?.utf8.count ?? 0) + 64
        }
    }
}

/// Cuts one connection's body into pieces: a pure value, fed by the transport's thread.
struct StreamFramer: Sendable {
    private enum State: Sendable {
        case chunks
        case lines(LineSplitter)
        case events(ServerSentEventParser)
    }

    private var state: State

    /// - Parameters:
    ///   - framing: How to cut.
    ///   - limit: The most bytes a line or an event may hold.
    ///   - lastEventID: Where an event stream resumes.
    ///   - reconnectionTime: The reconnection time an earlier connection of the stream set.
    init(_ framing: StreamFraming, limit: Int, lastEventID: String, reconnectionTime: TimeInterval?) {
        switch framing {
        case .chunks: state = .chunks
        case .lines: state = .lines(LineSplitter(limit: limit))
        case .events:
            state = .events(
                ServerSentEventParser(
                    lastEventID: lastEventID, reconnectionTime: reconnectionTime, maximumEventSize: limit))
        }
    }

    /// The pieces `bytes` completes.
    /// - Throws: ``/EndpointKit/TransportError`` for a line or an event over the limit.
    mutating func frames(in bytes: UnsafeRawBufferPointer) throws -> [StreamFrame] {
        switch state {
        case .chunks:
            return [.bytes(Data(bytes))]
        case .lines(var splitter):
            var frames: [StreamFrame] = []
            state = .chunks  // keeps the splitter uniquely referenced while it changes
            defer { state = .lines(splitter) }
            try splitter.split(bytes) { frames.append(.bytes(Data($0))) }
            return frames
        case .events(var parser):
            state = .chunks
            defer { state = .events(parser) }
            return try parser.parse(bytes).map(StreamFrame.event)
        }
    }

    /// The body ended normally: a last line without a line end counts; an unfinished event
    /// does not.
    mutating func finish() -> [StreamFrame] {
        switch state {
        case .chunks:
            return []
        case .lines(var splitter):
            defer { state = .lines(splitter) }
            return splitter.finish().map { [.bytes(Data($0))] } ?? []
        case .events(var parser):
            defer { state = .events(parser) }
            parser.finish()
            return []
        }
    }

    /// An event stream's last event ID and reconnection time so far.
    var eventState: (lastEventID: String, reconnectionTime: TimeInterval?)? {
        guard case .events(let parser) = state else { return nil }
        return (parser.lastEventID, parser.reconnectionTime)
    }
}
