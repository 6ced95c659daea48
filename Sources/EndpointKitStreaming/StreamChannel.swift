import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The bounded buffer between a stream's transfers and its reader.
///
/// Each connection (``StreamConnection``) cuts its body into pieces on the transport's thread
/// and adds them here; the reader takes them. When the pieces held reach the capacity, the
/// connection refuses the next bytes and its transfer pauses; when the reader has taken the
/// buffer down to half, the transfer resumes. The end of the stream (its result) comes after the
/// last piece. Only the current connection may add pieces: a connection that ended, or one a
/// newer connection replaced, adds nothing more.
final class StreamChannel: Sendable {
    /// What the reader gets.
    enum Taken {
        /// Pieces, in order.
        case frames([StreamFrame])
        /// The stream's result, after every piece.
        case end(APIResult<StreamSummary>)
        /// Nothing yet.
        case empty
    }

    private struct State {
        var frames: [StreamFrame] = []
        var head = 0
        var bufferedBytes = 0
        /// The current connection's number; 0 before the first.
        var connection = 0
        /// How many pieces the current connection added.
        var connectionFrames = 0
        /// The resume of a transfer the buffer refused, until it is called.
        var pausedTransfer: (@Sendable () -> Void)?
        var waiter: (@Sendable () -> Void)?
        var end: APIResult<StreamSummary>?
        var isDiscarded = false
        /// Whether a connection's response was ever accepted (the stream was established).
        var wasOpened = false
        var bytesReceived: Int64 = 0
        var lastEventID = ""
        var reconnectionTime: TimeInterval?
    }

    /// The most bytes held before transfers are paused.
    let capacity: Int
    /// The most bytes a line or an event may hold.
    let limit: Int
    let framing: StreamFraming
    /// Ends the stream with a failure of the body itself (an event over the limit).
    let onFailure: Locked<(@Sendable (TransportError) -> Void)?> = Locked(nil)
    private let state = Locked(State())

    init(capacity: Int, limit: Int, framing: StreamFraming) {
        self.capacity = max(1, capacity)
        self.limit = max(1, limit)
        self.framing = framing
    }

    // MARK: - Connections

    /// A connection for the next attempt; earlier ones add nothing more.
    /// - Parameter accepts: Whether a response's body is streamed (else it is collected).
    func connect(accepting accepts: @escaping @Sendable (HTTPURLResponse) -> Bool) -> StreamConnection {
        let (number, lastEventID, reconnectionTime) = state.withLock { state in
            state.connection += 1
            state.connectionFrames = 0
            state.pausedTransfer = nil
            return (state.connection, state.lastEventID, state.reconnectionTime)
        }
        let framer = StreamFramer(framing, limit: limit, lastEventID: lastEventID, reconnectionTime: reconnectionTime)
        return StreamConnection(channel: self, number: number, framer: framer, accepts: accepts)
    }

    /// Whether connection `number` may add bytes now; when the buffer is full, `resume` is kept
    /// to restart its transfer once the reader caught up. A connection that is no longer the
    /// current one may: its bytes are dropped.
    func hasRoom(for number: Int, resume: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            guard number == state.connection, !state.isDiscarded, state.end == nil else { return true }
            guard state.bufferedBytes >= capacity else { return true }
            state.pausedTransfer = resume
            return false
        }
    }

    /// Adds connection `number`'s pieces, made of `bytes` body bytes, and wakes the reader.
    func add(
        _ frames: [StreamFrame], bytes: Int, from number: Int,
        eventState: (lastEventID: String, reconnectionTime: TimeInterval?)?
    ) {
        state.withLock { state in
            guard number == state.connection, !state.isDiscarded, state.end == nil else { return }
            state.bytesReceived += Int64(bytes)
            if let eventState {
                state.lastEventID = eventState.lastEventID
                state.reconnectionTime = eventState.reconnectionTime
            }
            guard !frames.isEmpty else { return }
            state.frames += frames
            state.connectionFrames += frames.count
            for frame in frames { state.bufferedBytes += frame.size }
            Self.wake(&state)
        }
    }

    /// Connection `number`'s response was accepted: its body comes here.
    func opened(_ number: Int) {
        state.withLock { state in
            if number == state.connection { state.wasOpened = true }
        }
    }

    /// Whether a connection's response was ever accepted.
    var wasOpened: Bool { state.withLock { $0.wasOpened } }

    /// How many pieces the current connection added.
    var connectionFrames: Int { state.withLock { $0.connectionFrames } }

    /// The stream's progress so far: bytes, last event ID, the server's reconnection time.
    var progress: (bytesReceived: Int64, lastEventID: String, reconnectionTime: TimeInterval?) {
        state.withLock { ($0.bytesReceived, $0.lastEventID, $0.reconnectionTime) }
    }

    // MARK: - The end

    /// Ends the stream with `result`, after the pieces held, or instead of them when
    /// `discarding`; the first end wins.
    func end(with result: APIResult<StreamSummary>, discarding: Bool) {
        state.withLock { state in
            guard state.end == nil || discarding && !state.isDiscarded else { return }
            if discarding {
                state.isDiscarded = true
                state.frames = []
                state.head = 0
                state.bufferedBytes = 0
            }
            if state.end == nil || discarding { state.end = result }
            state.pausedTransfer = nil
            Self.wake(&state)
        }
    }

    /// Calls the reader's waiter, if any, inside the lock: the reader takes this lock before it
    /// waits again, so that wait is ordered after the wake-up (the Swift runtime's own hand-off,
    /// when a resume wins the race with the await, is invisible to the thread sanitizer). So the
    /// reader's cancellation handler hands its cancel off (``/EndpointKit/TaskCancellationHandoff``).
    private static func wake(_ state: inout State) {
        let waiter = state.waiter
        state.waiter = nil
        waiter?()
    }

    /// Whether the reader should drop what it holds (the stream was cancelled or failed).
    var isDiscarded: Bool { state.withLock { $0.isDiscarded } }

    // MARK: - The reader

    /// Up to `count` pieces, or the end once every piece was taken.
    func take(_ count: Int) -> Taken {
        let (taken, resume) = state.withLock { state -> (Taken, (@Sendable () -> Void)?) in
            let available = state.frames.count - state.head
            guard available > 0 else { return (state.end.map(Taken.end) ?? .empty, nil) }
            let end = state.head + min(count, available)
            let frames = Array(state.frames[state.head..<end])
            state.head = end
            for frame in frames { state.bufferedBytes -= frame.size }
            if state.head == state.frames.count {
                state.frames.removeAll(keepingCapacity: state.frames.capacity <= 4096)
                state.head = 0
            } else if state.head >= 1024, state.head * 2 >= state.frames.count {
                state.frames.removeFirst(state.head)
                state.head = 0
            }
            var resume: (@Sendable () -> Void)?
            if state.bufferedBytes <= capacity / 2 {
                resume = state.pausedTransfer
                state.pausedTransfer = nil
            }
            return (.frames(frames), resume)
        }
        resume?()
        return taken
    }

    /// Calls `wake` once when pieces or the end arrive, inside the channel's lock: it may only hand
    /// off (resume a continuation, dispatch), never call back into the channel.
    /// - Returns: `false` (and `wake` is not kept) if some are there already.
    func wait(_ wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.head == state.frames.count, state.end == nil else { return false }
            state.waiter = wake
            return true
        }
    }
}
