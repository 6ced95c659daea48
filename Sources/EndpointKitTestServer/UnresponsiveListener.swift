import Foundation

/// A port on loopback where connecting never completes: a listener that never accepts, whose
/// queue of pending connections is full, so the kernel drops further handshakes (SYNs) and a
/// client waits until its connect timeout.
///
/// For tests of connect timeouts without an outside address:
///
/// ```swift
/// let listener = try UnresponsiveListener()
/// defer { listener.stop() }
/// let result = await client.send(Ping(baseURL: listener.baseURL))   // times out connecting
/// ```
public final class UnresponsiveListener: @unchecked Sendable {
    /// The bound port.
    public let port: UInt16
    private let lock = NSLock()
    private var descriptors: [Int32]

    /// Listens on an ephemeral loopback port with a backlog of 0 and fills the queue with
    /// connections of its own.
    /// - Throws: ``TestServerError`` if the socket cannot be made.
    public init() throws(TestServerError) {
        let (listener, port) = try Socket.makeListener(port: 0, backlog: 0)
        self.port = port
        // Linux keeps backlog + 1 completed connections; a few more cover other kernels' rounding.
        let fillers = (0..<4).compactMap { _ in Socket.startConnecting(toPort: port) }
        descriptors = [listener] + fillers
        // Let the kernel finish the fillers' handshakes, so that the queue is full when the test
        // connects.
        Thread.sleep(forTimeInterval: 0.1)
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Closes the listener and its own connections.
    public func stop() {
        let open = lock.withLock {
            defer { descriptors = [] }
            return descriptors
        }
        for fd in open { Socket.closeDescriptor(fd) }
    }

    deinit { stop() }
}
