import Dispatch
import Foundation

/// The reading side of one stream for closure and delegate code: on one queue, takes pieces in
/// batches, turns them into elements and hands each over, then the end. A slow handler is a slow
/// reader: the transfer waits for it.
final class StreamPump<Element: Sendable>: Sendable {
    private let controller: any StreamController
    private let element: @Sendable (StreamFrame, JSONDecoder) throws -> Element?
    private let decoder: JSONDecoder
    private let queue: DispatchQueue
    /// Hands an element over; `false` when nobody listens any more (the stream is cancelled).
    private let onElement: @Sendable (Element) -> Bool
    private let onEnd: @Sendable (APIResult<StreamSummary>) -> Void

    init(
        controller: any StreamController, format: StreamFormat<Element>, decoder: JSONDecoder, queue: DispatchQueue,
        onElement: @escaping @Sendable (Element) -> Bool, onEnd: @escaping @Sendable (APIResult<StreamSummary>) -> Void
    ) {
        self.controller = controller
        element = format.element
        self.decoder = decoder
        self.queue = queue
        self.onElement = onElement
        self.onEnd = onEnd
    }

    func start() { queue.async { [self] in drain() } }

    private func drain() {
        let channel = controller.channel
        switch channel.take(64) {
        case .frames(let frames):
            delivering: for frame in frames {
                guard !channel.isDiscarded else { break }
                do {
                    guard let element = try element(frame, decoder) else { continue }
                    guard onElement(element) else {
                        controller.cancel()
                        break delivering
                    }
                } catch {
                    controller.fail(.undecodableElement(error, as: Element.self))
                    break delivering
                }
            }
            queue.async { [self] in drain() }
        case .end(let result):
            controller.delivered(result)
            onEnd(result)
        case .empty:
            let queue = self.queue
            if !channel.wait({ [self] in queue.async { self.drain() } }) { queue.async { [self] in drain() } }
        }
    }
}
