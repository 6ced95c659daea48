import Foundation

/// An in-process HTTP/1.1 server on `127.0.0.1`, for exercising real HTTP in tests and demos.
///
/// The server starts serving as soon as it is created and has a set of built-in routes
/// (`/echo`, `/status/{code}`, `/delay/{ms}`, `/bytes/{n}`, `/json/{n}`, `/redirect/{n}` and the
/// `/fault/...` routes); ``route(_:_:)`` adds or overrides routes.
///
/// ## Threads
/// One thread accepts connections; every connection is served by its own thread, which reads
/// requests with blocking calls and runs the handlers, so a slow or delayed handler only holds
/// up its own connection. Keep-alive connections keep their thread, so repeated requests over
/// one connection create no threads.
///
/// ```swift
/// let server = try TestServer()
/// defer { server.stop() }
/// server.route("/hello") { _ in .text("hi") }
/// let url = server.url("/hello")
/// ```
public final class TestServer: Sendable {
    /// A route handler. It runs on the connection's thread and may block (for example to
    /// simulate a slow backend); prefer ``TestResponse/delayed(_:_:)`` for delays, since that
    /// wait is cut short by ``stop()``.
    public typealias Handler = @Sendable (TestRequest) -> TestResponse

    /// The largest request body accepted by default (2 GiB); larger ones are answered with 413.
    public static let defaultMaxRequestBodySize = 2 * 1024 * 1024 * 1024

    /// The port the server listens on (the ephemeral port chosen by the system for `port: 0`).
    public let port: UInt16

    private let core: ServerCore

    /// Binds 127.0.0.1 on an ephemeral port (port 0) and starts serving immediately. Throws a
    /// typed error (`TestServerError`) if socket/bind/listen fail.
    ///
    /// - Parameters:
    ///   - port: The port to bind, or `0` for an ephemeral one.
    ///   - maxRequestBodySize: Request bodies larger than this are refused with 413.
    public init(
        port: UInt16 = 0,
        maxRequestBodySize: Int = TestServer.defaultMaxRequestBodySize
    ) throws(TestServerError) {
        core = try ServerCore(port: port, maxBodyBytes: maxRequestBodySize)
        self.port = core.port
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        // The string is always a valid URL; the fallback only avoids a force unwrap.
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// The URL of `pathAndQuery` on this server, for example `server.url("/echo?a=1")`.
    ///
    /// `pathAndQuery` is used verbatim (it must already be percent-encoded where needed).
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") ?? baseURL
    }

    /// Registers a handler for an exact path (no query), or for a prefix when the pattern ends
    /// with "*" (e.g. "/status/*"). Later registrations win over earlier ones for the same
    /// pattern; exact beats prefix; longest prefix wins.
    ///
    /// Paths are matched against the raw (not percent-decoded) path. Requests matching no route
    /// get a 404. The pattern `"*"` matches every path not matched otherwise.
    public func route(_ pattern: String, _ handler: @escaping Handler) {
        core.addRoute(pattern, handler)
    }

    /// Number of requests fully read so far (head and body, counted before the handler runs).
    public var requestCount: Int {
        core.state.withLock { $0.requestCount }
    }

    /// Number of TCP connections accepted so far.
    public var connectionCount: Int {
        core.state.withLock { $0.connectionCount }
    }

    /// Number of connections currently open on the server side.
    ///
    /// A connection is closed once the server notices that the client went away: immediately
    /// when idle or stalled (``TestResponse/stall``), only after the wait for a
    /// ``TestResponse/delayed(_:_:)`` response or a blocking handler.
    public var openConnectionCount: Int {
        core.state.withLock { $0.openConnections.count }
    }

    /// Number of the server's threads (listener and connections) still running: 0 once ``stop()``
    /// has returned, unless a thread failed to end within stop's fallback wait.
    public var liveThreadCount: Int {
        core.state.withLock { $0.liveThreads }
    }

    /// Blocks until at least `count` requests have been read, or `timeout` seconds pass.
    /// - Returns: whether the count was reached.
    @discardableResult
    public func waitForRequestCount(atLeast count: Int, timeout: TimeInterval) -> Bool {
        core.state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.requestCount >= count }
    }

    /// Blocks until at most `count` connections are open, or `timeout` seconds pass; use it to
    /// check that a client closed its connection (for example after cancelling a stalled request).
    /// - Returns: whether the count was reached.
    @discardableResult
    public func waitForOpenConnectionCount(atMost count: Int, timeout: TimeInterval) -> Bool {
        core.state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.openConnections.count <= count }
    }

    /// Stops: closes the listener and every open connection, releases stalled handlers,
    /// joins/ends its threads. Idempotent; also called from deinit.
    ///
    /// Stalled, delayed and dripping responses end at once. A handler that is itself blocked
    /// cannot be interrupted: `stop()` waits at most 5 seconds for it and then returns anyway.
    /// When called from inside a handler it does not wait for the server's threads.
    public func stop() {
        core.stop()
    }

    /// The deterministic bytes served by `/bytes/{n}`: byte `i` is `UInt8(i % 256)`.
    public static func patternBytes(count: Int) -> Data {
        var data = Data(count: max(0, count))
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            let period = min(256, buffer.count)
            for index in 0..<period { buffer[index] = UInt8(truncatingIfNeeded: index) }
            // Double the filled prefix; it is always a whole number of 256-byte periods.
            var filled = period
            while filled < buffer.count {
                let length = min(filled, buffer.count - filled)
                (base + filled).copyMemory(from: base, byteCount: length)
                filled += length
            }
        }
        return data
    }
}
