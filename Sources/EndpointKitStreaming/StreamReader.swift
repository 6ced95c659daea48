@_spi(Internal) import EndpointKit
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
    /// What the stream amounted to so far: bytes, reconnections, the last event ID.
    var summary: StreamSummary { get }
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
    /// Told what the stream amounted to once this reader is done with it: when it takes the end,
    /// or when it is released before (the loop was left). Set before the first ``next()``.
    var onEnd: (@Sendable (StreamSummary) -> Void)?

    init(controller: any StreamController, format: StreamFormat<Element>, decoder: JSONDecoder) {
        self.controller = controller
        element = format.element
        self.decoder = decoder
    }

    deinit {
        controller.cancel()
        if !isFinished { onEnd?(controller.summary) }
    }

    /// The next element; `nil` after a stream that ended normally.
    /// - Throws: The ``/EndpointKit/APIFailure`` the stream ended with, once.
    func next() async throws(APIFailure) -> Element? {
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
                onEnd?(result.value ?? controller.summary)
                switch result {
                case .success: return nil
                case .serverFailure(let failure): throw .server(failure)
                case .transportError(let error): throw .transport(error)
                }
            case .empty:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                        if !channel.wait({ continuation.resume() }) { continuation.resume() }
                    }
                } onCancel: { [controller] in
                    // Not here: the cancel takes the channel's lock (see TaskCancellationHandoff).
                    TaskCancellationHandoff.cancel { controller.cancel() }
                }
            }
        }
        return nil
    }
}
