import Dispatch
import EndpointKit
import Foundation

/// The reading side of one stream for closure and delegate code: takes pieces in batches and
/// turns them into elements off the main thread, hands each batch over on the main actor, then
/// the end. The next batch is read only once the handler returned, so a slow handler is a slow
/// reader: the transfer waits for it.
final class StreamPump<Element: Sendable>: Sendable {
    private let controller: any StreamController
    private let element: @Sendable (StreamFrame, JSONDecoder) throws -> Element?
    private let decoder: JSONDecoder
    /// Where pieces are read and decoded (one drain at a time: each schedules the next).
    private let readQueue: DispatchQueue
    /// Hands an element over; `false` when nobody listens any more (the stream is cancelled).
    private let onElement: @MainActor @Sendable (Element) -> Bool
    private let onEnd: @MainActor @Sendable (APIResult<StreamSummary>) -> Void

    init(
        controller: any StreamController, format: StreamFormat<Element>, decoder: JSONDecoder,
        readQueue: DispatchQueue, onElement: @escaping @MainActor @Sendable (Element) -> Bool,
        onEnd: @escaping @MainActor @Sendable (APIResult<StreamSummary>) -> Void
    ) {
        self.controller = controller
        element = format.element
        self.decoder = decoder
        self.readQueue = readQueue
        self.onElement = onElement
        self.onEnd = onEnd
    }

    func start() { readQueue.async { [self] in drain() } }

    private func drain() {
        let channel = controller.channel
        switch channel.take(64) {
        case .frames(let frames):
            var elements: [Element] = []
            var failure: TransportError?
            for frame in frames {
                do {
                    if let element = try element(frame, decoder) { elements.append(element) }
                } catch {
                    failure = .undecodableElement(error, as: Element.self)
                    break
                }
            }
            MainQueue.async { [self] in
                hand(elements, thenFailWith: failure)
                readQueue.async { [self] in drain() }
            }
        case .end(let result):
            controller.delivered(result)
            MainQueue.async { [onEnd] in onEnd(result) }
        case .empty:
            let queue = readQueue
            if !channel.wait({ [self] in queue.async { self.drain() } }) { queue.async { [self] in drain() } }
        }
    }

    /// Hands a batch over, in order, unless the stream was discarded or the listener left.
    @MainActor
    private func hand(_ elements: [Element], thenFailWith failure: TransportError?) {
        let channel = controller.channel
        for element in elements {
            guard !channel.isDiscarded else { return }
            guard onElement(element) else { return controller.cancel() }
        }
        if let failure, !channel.isDiscarded { controller.fail(failure) }
    }
}
