import Foundation

/// The shared engine behind a ``TestServer``: listener, routes, counters, live connections and
/// the threads serving them.
///
/// Threads hold the core (not the `TestServer`), so dropping the last `TestServer` reference
/// runs its `deinit`, which stops the core; the core itself is freed once its threads are gone.
final class ServerCore: Sendable {
    struct State: Sendable {
        var router = Router()
        var requestCount = 0
        var connectionCount = 0
        var liveThreads = 0
        var stopped = false
        var nextConnectionID = 0
        /// Open connection sockets by id; a socket is removed under the lock before it is closed,
        /// so `stop()` never shuts down a descriptor number that was reused.
        var openConnections: [Int: Int32] = [:]
    }

    /// How long `stop()` waits for the server's threads before giving up (a handler that blocks
    /// forever cannot be interrupted).
    static let stopTimeout: TimeInterval = 5
    private static let threadKey = "EndpointKitTestServer.core"

    let port: UInt16
    let maxBodyBytes: Int
    let stopSignal: StopSignal
    let state = Locked(State())
    private let listenFD: Int32

    init(port requestedPort: UInt16, maxBodyBytes: Int) throws(TestServerError) {
        Socket.ignoreSIGPIPE()
        stopSignal = try StopSignal()
        let listener = try Socket.makeListener(port: requestedPort, backlog: 1024)
        listenFD = listener.fd
        port = listener.port
        self.maxBodyBytes = maxBodyBytes
        state.withLock { BuiltinRoutes.install(into: &$0.router) }
        spawn(name: "EndpointKitTestServer accept :\(port)") { [self] in acceptLoop() }
    }

    // MARK: - Routes and counters

    func addRoute(_ pattern: String, _ handler: @escaping TestServer.Handler) {
        state.withLock { $0.router.add(pattern, handler) }
    }

    /// Counts a fully read request and looks up its handler, under one lock acquisition.
    func beginRequest(path: String) -> TestServer.Handler? {
        state.mutate { state in
            state.requestCount += 1
            return state.router.handler(for: path)
        }
    }

    // MARK: - Stopping

    /// Stops the server; see ``TestServer/stop()``.
    func stop() {
        state.mutate { state in
            guard !state.stopped else { return }
            state.stopped = true
            stopSignal.fire()
            // Under the lock, so that no descriptor here can be closed (and reused) concurrently.
            for fd in state.openConnections.values { Socket.shutdownBoth(fd) }
        }
        // A handler calling stop() must not wait for its own thread.
        guard !isServerThread else { return }
        _ = state.wait(until: Date(timeIntervalSinceNow: Self.stopTimeout)) { $0.liveThreads == 0 }
    }

    private var isServerThread: Bool {
        (Thread.current.threadDictionary[Self.threadKey] as? Int) == Int(bitPattern: ObjectIdentifier(self))
    }

    // MARK: - Threads

    private func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let identity = Int(bitPattern: ObjectIdentifier(self))
        state.startThread(named: name, counting: { $0.liveThreads += $1 }) {
            Thread.current.threadDictionary[Self.threadKey] = identity
            body()
        }
    }

    private func acceptLoop() {
        defer { Socket.closeDescriptor(listenFD) }
        while true {
            let ready = Socket.waitReadable([listenFD, stopSignal.readFD], timeoutMilliseconds: -1)
            if ready[1] { return }
            guard ready[0] else {
                usleep(10_000)  // poll(2) failed; avoid spinning.
                continue
            }
            guard let fd = Socket.accept(listenFD) else {
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    if stopSignal.wait(seconds: 0.01) { return }
                }
                continue
            }
            let id: Int? = state.mutate { state in
                guard !state.stopped else { return nil }
                state.connectionCount += 1
                state.nextConnectionID += 1
                state.openConnections[state.nextConnectionID] = fd
                return state.nextConnectionID
            }
            guard let id else {
                Socket.closeDescriptor(fd)
                return
            }
            spawn(name: "EndpointKitTestServer connection #\(id)") { [self] in
                var connection = Connection(fd: fd, core: self)
                connection.run()
                state.mutate { _ = $0.openConnections.removeValue(forKey: id) }
                Socket.closeDescriptor(fd)
            }
        }
    }
}
