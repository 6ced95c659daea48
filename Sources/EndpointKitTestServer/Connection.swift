import Foundation

/// Serves one accepted TCP connection on its own thread: reads a request, runs its handler,
/// writes the response, and repeats while the connection is kept alive.
struct Connection {
    private let fd: Int32
    private let core: ServerCore
    private var reader: RequestReader
    private let writer: ResponseWriter

    init(fd: Int32, core: ServerCore) {
        self.fd = fd
        self.core = core
        reader = RequestReader(fd: fd, maxBodyBytes: core.maxBodyBytes)
        writer = ResponseWriter(fd: fd, stopSignal: core.stopSignal)
    }

    /// Serves requests until either side closes the connection or the server stops. The caller
    /// closes the socket afterwards.
    mutating func run() {
        while true {
            switch reader.readRequest() {
            case .closed:
                return
            case .reject(let status, let message):
                let response = TestResponse.text(message + "\n", status: status)
                let context = ResponseWriter.Context(keepAlive: false, isHTTP10: false, isHead: false)
                _ = writer.write(response, context)
                lingeringClose()
                return
            case .request(let received):
                let handler = core.beginRequest(path: received.request.path)
                let response = handler?(received.request) ?? .text("Not Found\n", status: 404)
                let context = ResponseWriter.Context(
                    keepAlive: received.keepAlive, isHTTP10: received.isHTTP10, isHead: received.isHead)
                guard writer.write(response, context) else { return }
            }
        }
    }

    /// After an error response the client may still be sending (e.g. a body we refused). Closing
    /// with unread data would reset the connection and could destroy the response before the
    /// client reads it, so signal end-of-stream and drain for a short, bounded time first.
    private func lingeringClose() {
        Socket.shutdownWrite(fd)
        var discard = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Date(timeIntervalSinceNow: 2)
        var drained = 0
        while Date() < deadline && drained < 64 * 1024 * 1024 {
            let ready = Socket.waitReadable([fd, core.stopSignal.readFD], timeoutMilliseconds: 100)
            if ready[1] { return }
            guard ready[0] else { continue }
            let count = discard.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            if count <= 0 { return }
            drained += count
        }
    }
}
