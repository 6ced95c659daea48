import Foundation

/// What the readers of a stream need from its run, whatever the request type.
protocol StreamController: Sendable {
    /// The buffer the pieces wait in.
    var channel: StreamChannel { get }
    /// Cancels the stream.
    func cancel()
    /// Ends the stream with a failure the reader ran into.
    func fail(_ error: TransportError)
    /// The reader took the end.
    func delivered(_ result: APIResult<StreamSummary>)
}

extension StreamRun: StreamController {}

extension TransportError {
    /// An element that did not decode: the stream ends with this.
    static func undecodableElement<Element>(_ error: any Error, as type: Element.Type) -> TransportError {
        TransportError(
            .decodingFailed,
            message: "An element of the stream could not be decoded as \(Element.self): \(error.readableDescription)",
            underlyingError: error)
    }
}

/// The reading side of one stream for async code (``ResponseStream``): takes pieces in batches
/// and turns them into elements on the reading task; the stream is cancelled when the reader is
/// released before the end (the loop was left).
///
/// Only ``next()`` touches the batch, and an iterator calls it one call at a time.
final class StreamReader<Element: Sendable>: @unchecked Sendable {
    private let controller: any StreamController
    private let element: @Sendable (StreamFrame, JSONDecoder) throws -> Element?
    private let decoder: JSONDecoder
    private var batch: [StreamFrame] = []
    private var index = 0
    private var isFinished = false

    init(controller: any StreamController, format: StreamFormat<Element>, decoder: JSONDecoder) {
        self.controller = controller
        element = format.element
        self.decoder = decoder
    }

    deinit { controller.cancel() }

    /// The next element; `nil` after a stream that ended normally.
    /// - Throws: The ``ServerFailure`` or ``TransportError`` the stream ended with, once.
    func next() async throws -> Element? {
        let channel = controller.channel
        while !isFinished {
            if index < batch.count {
                let frame = batch[index]
                index += 1
                guard !channel.isDiscarded else {
                    batch = []
                    index = 0
                    continue
                }
                do {
                    if let element = try element(frame, decoder) { return element }
                } catch {
                    controller.fail(.undecodableElement(error, as: Element.self))
                }
                continue
            }
            switch channel.take(64) {
            case .frames(let frames):
                batch = frames
                index = 0
            case .end(let result):
                isFinished = true
                batch = []
                controller.delivered(result)
                switch result {
                case .success: return nil
                case .serverFailure(let failure): throw failure
                case .transportError(let error): throw error
                }
            case .empty:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                        if !channel.wait({ continuation.resume() }) { continuation.resume() }
                    }
                } onCancel: { [controller] in
                    controller.cancel()
                }
            }
        }
        return nil
    }
}

/// A stream's elements as an `AsyncSequence`, from ``APIClient/stream(_:info:)``.
///
/// Iterating sends the request; elements come as they arrive, and a reader that is behind holds
/// the transfer back (see ``StreamingRequest/bufferSize``). Leaving the loop, or cancelling the
/// Task, cancels the transfer. The loop ends normally when the stream does; a stream that fails
/// throws its ``ServerFailure`` (a status the validation refused, with its body) or
/// ``TransportError`` (a cut connection, after the elements that came before it; a cancelled
/// Task; an element that did not decode).
///
/// ```swift
/// do {
///     for try await line in client.stream(TailLog(name: "api")) { print(line) }
/// } catch let failure as ServerFailure {
///     print("refused:", failure.statusCode, failure.bodyText)
/// }
/// ```
///
/// Each iteration sends the request again.
public struct ResponseStream<Element: Sendable>: AsyncSequence, Sendable {
    /// Any error: ``ServerFailure`` or ``TransportError``.
    public typealias Failure = any Error

    private let start: @Sendable () -> StreamReader<Element>

    init(start: @escaping @Sendable () -> StreamReader<Element>) {
        self.start = start
    }

    /// Sends the request and returns the iterator of its elements.
    public func makeAsyncIterator() -> Iterator { Iterator(reader: start()) }

    /// Iterates one stream; dropping it before the end cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        private let reader: StreamReader<Element>

        init(reader: StreamReader<Element>) {
            self.reader = reader
        }

        /// The next element, or `nil` at the end of the stream.
        public mutating func next() async throws -> Element? { try await reader.next() }

        /// The next element, or `nil` at the end of the stream.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await reader.next()
        }
    }
}
