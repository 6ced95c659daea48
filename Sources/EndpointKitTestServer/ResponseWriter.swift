import Foundation

/// Serializes a ``TestResponse`` onto a socket, including the scripted faults.
struct ResponseWriter {
    /// What the writer needs to know about the request being answered.
    struct Context {
        /// Whether the client allows reuse of the connection.
        var keepAlive: Bool
        /// Whether the request was HTTP/1.0 (no chunked encoding; keep-alive must be announced).
        var isHTTP10: Bool
        /// Whether the request was `HEAD` (no body bytes are written).
        var isHead: Bool
    }

    /// Bodies up to this size are sent in the same `send` as the head.
    private static let coalesceLimit = 256 * 1024
    /// How long ``TestResponse/reset(afterSending:)`` waits between its bytes and the reset.
    private static let pauseBeforeReset: TimeInterval = 0.05

    let fd: Int32
    let stopSignal: StopSignal

    /// Writes `response`.
    /// - Returns: whether the connection may be used for another request.
    func write(_ response: TestResponse, _ context: Context) -> Bool {
        switch response {
        case .response(let status, let headers, let body):
            let noBody = HTTPStatus.forbidsBody(status)
            var framing: [(String, String)] = []
            if !noBody && !Self.has(headers, "Content-Length") && !Self.has(headers, "Transfer-Encoding") {
                framing.append(("Content-Length", String(body.count)))
            }
            let keepAlive = context.keepAlive && !Self.closeRequested(headers)
            var bytes = head(status: status, headers: headers, extra: framing, keepAlive: keepAlive, context)
            guard !noBody && !context.isHead && !body.isEmpty else { return Socket.sendAll(fd, bytes) && keepAlive }
            if body.count <= Self.coalesceLimit {
                bytes.append(contentsOf: body)
                return Socket.sendAll(fd, bytes) && keepAlive
            }
            return Socket.sendAll(fd, bytes) && body.withUnsafeBytes { Socket.sendAll(fd, $0) } && keepAlive

        case .chunked(let status, let headers, let chunks, let delay):
            return writeChunked(status: status, headers: headers, chunks: chunks, delay: delay, context)

        case .chunkedThenStall(let status, let headers, let chunks, let delay):
            _ = writeChunked(status: status, headers: headers, chunks: chunks, delay: delay, context, thenStall: true)
            return false

        case .streamed(let status, let headers, let body):
            return writeStreamed(status: status, headers: headers, body: body, context)

        case .stall:
            stopSignal.waitForDisconnect(fd)
            return false

        case .stallAfterHeaders(let status, let headers, let contentLength):
            let framing = Self.has(headers, "Content-Length") ? [] : [("Content-Length", String(contentLength))]
            let bytes = head(status: status, headers: headers, extra: framing, keepAlive: context.keepAlive, context)
            if Socket.sendAll(fd, bytes) { stopSignal.waitForDisconnect(fd) }
            return false

        case .closeMidBody(let status, let headers, let declaredLength, let body):
            let framing = Self.has(headers, "Content-Length") ? [] : [("Content-Length", String(declaredLength))]
            var bytes = head(status: status, headers: headers, extra: framing, keepAlive: context.keepAlive, context)
            bytes.append(contentsOf: body)
            if Socket.sendAll(fd, bytes) { Socket.shutdownWrite(fd) }
            return false

        case .raw(let data, let closeAfter):
            let sent = data.withUnsafeBytes { Socket.sendAll(fd, $0) }
            if closeAfter && sent { Socket.shutdownWrite(fd) }
            return sent && !closeAfter && context.keepAlive

        case .close:
            return false

        case .reset(let data):
            let sent = data.withUnsafeBytes { Socket.sendAll(fd, $0) }
            if sent && !data.isEmpty { _ = stopSignal.wait(seconds: Self.pauseBeforeReset) }
            Socket.resetOnClose(fd)
            return false

        case .delayed(let seconds, let inner):
            if stopSignal.wait(seconds: seconds) { return false }
            return write(inner, context)
        }
    }

    private func writeChunked(
        status: Int, headers: [(String, String)], chunks: [Data], delay: TimeInterval, _ context: Context,
        thenStall: Bool = false
    ) -> Bool {
        let pieces = chunks.filter { !$0.isEmpty }
        if HTTPStatus.forbidsBody(status) || context.isHead {
            let keepAlive = context.keepAlive && !Self.closeRequested(headers)
            let framing = context.isHead && !context.isHTTP10 ? [("Transfer-Encoding", "chunked")] : []
            return Socket.sendAll(
                fd, head(status: status, headers: headers, extra: framing, keepAlive: keepAlive, context))
                && keepAlive
        }
        // HTTP/1.0 has no chunked encoding: send the pieces as they are and delimit by closing.
        let unframed = context.isHTTP10
        let keepAlive = !unframed && context.keepAlive && !Self.closeRequested(headers)
        let framing = unframed || Self.has(headers, "Transfer-Encoding") ? [] : [("Transfer-Encoding", "chunked")]
        guard Socket.sendAll(fd, head(status: status, headers: headers, extra: framing, keepAlive: keepAlive, context))
        else { return false }
        for (index, piece) in pieces.enumerated() {
            if index > 0 && delay > 0 && stopSignal.wait(seconds: delay) { return false }
            var bytes: [UInt8] = []
            if unframed {
                bytes.append(contentsOf: piece)
            } else {
                bytes.reserveCapacity(piece.count + 20)
                bytes.append(contentsOf: String(piece.count, radix: 16).utf8)
                bytes.append(contentsOf: [ASCII.cr, ASCII.lf])
                bytes.append(contentsOf: piece)
                bytes.append(contentsOf: [ASCII.cr, ASCII.lf])
            }
            guard Socket.sendAll(fd, bytes) else { return false }
        }
        if thenStall {
            stopSignal.waitForDisconnect(fd)
            return false
        }
        if unframed {
            Socket.shutdownWrite(fd)
            return false
        }
        return Socket.sendAll(fd, Array("0\r\n\r\n".utf8)) && keepAlive
    }

    private func writeStreamed(
        status: Int, headers: [(String, String)], body: @Sendable (TestStreamWriter) -> Void, _ context: Context
    ) -> Bool {
        let keepAlive = context.keepAlive && !Self.closeRequested(headers)
        guard !HTTPStatus.forbidsBody(status), !context.isHead, !context.isHTTP10 else {
            _ = Socket.sendAll(fd, head(status: status, headers: headers, extra: [], keepAlive: false, context))
            return false
        }
        let framing = Self.has(headers, "Transfer-Encoding") ? [] : [("Transfer-Encoding", "chunked")]
        guard Socket.sendAll(fd, head(status: status, headers: headers, extra: framing, keepAlive: keepAlive, context))
        else { return false }
        let writer = TestStreamWriter(fd: fd, stopSignal: stopSignal)
        body(writer)
        return writer.finish(keepAlive: keepAlive)
    }

    /// The status line and header block, ending with the empty line.
    private func head(
        status: Int, headers: [(String, String)], extra: [(String, String)], keepAlive: Bool, _ context: Context
    ) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))\r\n"
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
        }
        for (name, value) in extra {
            text += "\(name): \(value)\r\n"
        }
        if !Self.has(headers, "Connection") {
            if !keepAlive {
                text += "Connection: close\r\n"
            } else if context.isHTTP10 {
                text += "Connection: keep-alive\r\n"
            }
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func has(_ headers: [(String, String)], _ name: String) -> Bool {
        headers.contains { ASCII.equalsIgnoringCase($0.0, name) }
    }

    private static func closeRequested(_ headers: [(String, String)]) -> Bool {
        headers.contains {
            ASCII.equalsIgnoringCase($0.0, "Connection") && ASCII.lowercasedList($0.1).contains("close")
        }
    }
}
