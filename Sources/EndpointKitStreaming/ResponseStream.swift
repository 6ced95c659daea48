import EndpointKit

/// A stream's elements as an `AsyncSequence`, from ``EndpointKit/APIClient/stream(_:info:)``.
///
/// Iterating sends the request; elements come as they arrive, and a reader that is behind holds
/// the transfer back (see ``StreamingRequest/bufferSize``). Leaving the loop, or cancelling the
/// Task, cancels the transfer. The loop ends normally when the stream does; a stream that fails
/// throws its ``/EndpointKit/APIFailure``: `.server` (a status the validation refused, with its
/// body) or `.transport` (a cut connection, after the elements that came before it; a cancelled
/// Task; an element that did not decode).
///
/// Keep the stream in a constant to read its ``summary`` once the loop is over, however it ended:
///
/// ```swift
/// let stream = client.stream(TailLog(name: "api"))
/// do {
///     for try await line in stream { print(line) }
/// } catch {
///     print("refused:", error.statusCode ?? 0, error.message ?? "")
/// }
/// print("received", stream.summary?.bytesReceived ?? 0, "bytes")
/// ```
///
/// Each iteration sends the request again.
public struct ResponseStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What an iteration throws: the server's "no" (`.server`) or no usable answer (`.transport`).
    public typealias Failure = APIFailure

    private let start: @Sendable () -> StreamReader<Element>
    private let ends = StreamEnds()

    init(start: @escaping @Sendable () -> StreamReader<Element>) {
        self.start = start
    }

    /// What the latest iteration amounted to (bytes received, reconnections, the last event ID),
    /// once its loop is over: `nil` before, and while it runs.
    ///
    /// It is there however the loop ended: normally, by throwing (a refused status, a cut
    /// connection, a `204` that stopped an event stream, a cancelled Task), or by being left
    /// (`break`). That is how an event stream's ``StreamSummary/lastEventID`` is kept after a
    /// failure, to resume from later. After a cancel or a left loop it may count bytes and events
    /// that had arrived but were never handed to the loop. Copies of the stream share it, and a
    /// new iteration clears it.
    public var summary: StreamSummary? { ends.summary }

    /// Sends the request and returns the iterator of its elements.
    public func makeAsyncIterator() -> Iterator {
        let iteration = ends.begin()
        let reader = start()
        reader.onEnd = { [ends] summary in ends.record(summary, of: iteration) }
        return Iterator(reader: reader)
    }

    /// Iterates one stream; dropping it before the end cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        private let reader: StreamReader<Element>

        init(reader: StreamReader<Element>) {
            self.reader = reader
        }

        /// The next element, or `nil` at the end of the stream.
        /// - Throws: The ``/EndpointKit/APIFailure`` the stream ended with.
        public mutating func next() async throws(APIFailure) -> Element? { try await reader.next() }

        /// The next element, or `nil` at the end of the stream.
        /// - Throws: The ``/EndpointKit/APIFailure`` the stream ended with.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(APIFailure) -> Element? {
            try await reader.next()
        }
    }
}

/// Where a ``ResponseStream`` and its copies keep the summary of their latest iteration.
final class StreamEnds: Sendable {
    private let state = Locked((iteration: 0, summary: StreamSummary?.none))

    /// The summary of the latest iteration, once it ended.
    var summary: StreamSummary? { state.withLock { $0.summary } }

    /// A new iteration begins: the previous summary is cleared. Returns the iteration's number.
    func begin() -> Int {
        state.withLock { state in
            state.iteration += 1
            state.summary = nil
            return state.iteration
        }
    }

    /// Iteration `iteration` ended with `summary`; kept unless a later one began meanwhile.
    func record(_ summary: StreamSummary, of iteration: Int) {
        state.withLock { state in
            if state.iteration == iteration { state.summary = summary }
        }
    }
}
