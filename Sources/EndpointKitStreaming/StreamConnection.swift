@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt's body sink: takes the accepted response's body from the transport, cuts it into
/// pieces and adds them to the stream's ``StreamChannel``, refusing bytes while the channel is
/// full (the transfer then pauses).
///
/// Threads: the transport calls ``begin(_:resume:)`` and ``receive(_:)`` one at a time; the
/// execution calls ``finishBody()`` or ``consumeCollected(_:)`` after the transport completed.
/// The framer is touched only by those calls, which never overlap.
final class StreamConnection: ResponseBodySink, @unchecked Sendable {
    private let channel: StreamChannel
    private let number: Int
    private let accepts: @Sendable (HTTPURLResponse) -> Bool
    private var framer: StreamFramer
    private var resume: (@Sendable () -> Void)?
    private let opened = Locked(false)

    init(
        channel: StreamChannel, number: Int, framer: StreamFramer,
        accepts: @escaping @Sendable (HTTPURLResponse) -> Bool
    ) {
        self.channel = channel
        self.number = number
        self.framer = framer
        self.accepts = accepts
    }

    /// Whether the transport streamed the body here.
    var isOpen: Bool { opened.withLock { $0 } }

    func begin(_ response: HTTPURLResponse, resume: @escaping @Sendable () -> Void) -> Bool {
        guard accepts(response) else { return false }
        self.resume = resume
        opened.withLock { $0 = true }
        channel.opened(number)
        return true
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard channel.hasRoom(for: number, resume: resume) else { return false }
        add(bytes)
        return true
    }

    /// The body ended normally: what the framer still holds counts (a last line).
    func finishBody() {
        channel.add(framer.finish(), bytes: 0, from: number, eventState: framer.eventState)
    }

    /// The transport collected the body instead of streaming it (it ignores body sinks): the
    /// pieces come now, all at once.
    func consumeCollected(_ body: Data) {
        opened.withLock { $0 = true }
        channel.opened(number)
        body.withUnsafeBytes { add($0) }
        finishBody()
    }

    private func add(_ bytes: UnsafeRawBufferPointer) {
        do {
            let frames = try framer.frames(in: bytes)
            channel.add(frames, bytes: bytes.count, from: number, eventState: framer.eventState)
        } catch {
            let failure =
                error as? TransportError
                ?? TransportError(
                    .badResponse, message: "The stream could not be read: \(error)", underlyingError: error)
            channel.onFailure.withLock { $0 }?(failure)
        }
    }
}
