import Foundation

/// Writes the body of a ``TestResponse/streamed(status:headers:body:)`` response, one chunk per
/// ``send(_:)-(Data)``, on the connection's thread.
///
/// A send blocks while the client does not read (the socket's buffers are full), so
/// ``bytesSent`` shows how far a client that pauses lets the server get. When the body closure
/// returns, the body ends with the terminating chunk, unless ``cut()`` or ``reset()`` asked to
/// drop the connection instead.
///
/// ```swift
/// server.route("/events") { request in
///     .streamed(status: 200, headers: [("Content-Type", "text/event-stream")]) { body in
///         for id in 1...3 where body.send("id: \(id)\ndata: tick\n\n") { body.wait(0.05) }
///     }
/// }
/// ```
public final class TestStreamWriter: Sendable {
    /// How a streamed body ends.
    enum Ending: Sendable {
        /// With the terminating chunk; the connection may be reused.
        case complete
        /// By closing the connection (FIN) without the terminating chunk.
        case cut
        /// By resetting the connection (TCP RST).
        case reset
    }

    private struct State {
        var bytesSent = 0
        var isBroken = false
        var ending = Ending.complete
    }

    private let fd: Int32
    private let stopSignal: StopSignal
    private let state = Locked(State())

    init(fd: Int32, stopSignal: StopSignal) {
        self.fd = fd
        self.stopSignal = stopSignal
    }

    /// Body bytes sent so far (the chunks' content, not their framing).
    public var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// Sends `data` as one chunk (an empty one is skipped), blocking until the socket took it.
    /// - Returns: `false` once the client went away or the server is stopping; later sends do
    ///   nothing.
    @discardableResult
    public func send(_ data: Data) -> Bool {
        guard !state.withLock({ $0.isBroken }) else { return false }
        guard !data.isEmpty else { return true }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + 20)
        bytes.append(contentsOf: String(data.count, radix: 16).utf8)
        bytes.append(contentsOf: [ASCII.cr, ASCII.lf])
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: [ASCII.cr, ASCII.lf])
        let sent = !stopSignal.hasFired && Socket.sendAll(fd, bytes)
        state.withLock { state in
            if sent { state.bytesSent += data.count } else { state.isBroken = true }
        }
        return sent
    }

    /// Sends `text` as UTF-8, as one chunk.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Waits `seconds`, or less if the server stops or the client goes away.
    /// - Returns: `false` if the server is stopping or the client went away (the body should end).
    @discardableResult
    public func wait(_ seconds: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        var discard = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return !state.withLock { $0.isBroken } }
            let ready = Socket.waitReadable(
                [fd, stopSignal.readFD], timeoutMilliseconds: Int32(max(1, min(remaining * 1000, 60_000))))
            if ready[1] { return false }
            guard ready[0] else { continue }
            // The client sends nothing while it reads a body: this is its end of the connection.
            if discard.withUnsafeMutableBytes({ Socket.receive(fd, into: $0) }) <= 0 {
                state.withLock { $0.isBroken = true }
                return false
            }
        }
    }

    /// Ends the body, when the closure returns, by closing the connection without the
    /// terminating chunk: a stream cut in the middle.
    public func cut() { state.withLock { $0.ending = .cut } }

    /// Ends the body, when the closure returns, by resetting the connection (TCP RST).
    public func reset() { state.withLock { $0.ending = .reset } }

    /// Ends the body as asked.
    /// - Returns: Whether the connection may be used for another request.
    func finish(keepAlive: Bool) -> Bool {
        let (ending, broken) = state.withLock { ($0.ending, $0.isBroken) }
        guard !broken else { return false }
        switch ending {
        case .complete:
            return Socket.sendAll(fd, Array("0\r\n\r\n".utf8)) && keepAlive
        case .cut:
            Socket.shutdownWrite(fd)
            return false
        case .reset:
            Socket.resetOnClose(fd)
            return false
        }
    }
}
