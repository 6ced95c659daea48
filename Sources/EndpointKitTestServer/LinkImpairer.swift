import Foundation

/// A TCP proxy on loopback that makes a perfect link bad: per-direction latency and jitter, a
/// bandwidth cap, small pieces, stalls, resets and half-open connections, as a ``LinkProfile``
/// describes them, reproducibly from a seed.
///
/// It forwards every connection made to ``port`` to a server on `127.0.0.1:upstreamPort` (the
/// ``TestServer``, nginx, httpbin: anything that speaks TCP), and knows nothing of HTTP. Faults
/// sit at byte positions that follow from the seed and the connection's number; the tests can
/// also set them off at a moment of their choosing (``resetConnections()``,
/// ``stallConnections(for:)``, ``halfOpenConnections()``).
///
/// ```swift
/// let server = try TestServer()
/// let impairer = try LinkImpairer(upstreamPort: server.port, profile: .slowMobile, seed: 7)
/// defer { impairer.stop(); server.stop() }
/// let client = APIClient(baseURL: impairer.baseURL)     // every byte now crosses a slow mobile link
/// ```
///
/// ## What it cannot do
/// The kernel completes the TCP handshake before the proxy sees a connection, so connecting is
/// never delayed and a server that refuses reaches the client as a reset (counted in
/// ``Statistics/refusedByServer``), not as a refused connection: a refused port is tested by
/// connecting to it, or to a stopped impairer.
///
/// ## Threads
/// One thread accepts; each connection has two (one per direction). ``stop()`` resets every
/// connection and waits for them; `deinit` stops too.
public final class LinkImpairer: Sendable {
    /// What the impairer has done so far.
    public struct Statistics: Sendable, Hashable {
        /// Connections accepted.
        public var connections = 0
        /// Connections open now (both ends, until the last byte or fault).
        public var openConnections = 0
        /// Bytes forwarded from clients to the server. Each piece is counted just after it is
        /// written, so the other end may already have it (and have answered it): for the final
        /// count, read once the connection has closed (``waitForOpenConnections(atMost:timeout:)``).
        public var bytesUploaded = 0
        /// Bytes forwarded from the server to clients; counted like ``bytesUploaded``.
        public var bytesDownloaded = 0
        /// Connections reset, by the profile or by ``resetConnections()``.
        public var resets = 0
        /// Stalls, by the profile or by ``stallConnections(for:)`` (one per connection stalled).
        public var stalls = 0
        /// Connections gone half-open, by the profile or by ``halfOpenConnections()``.
        public var halfOpens = 0
        /// Connections whose server could not be reached (the client's was reset).
        public var refusedByServer = 0

        /// Creates empty statistics.
        public init() {}
    }

    /// The port clients connect to, on `127.0.0.1`.
    public let port: UInt16
    /// The port of the server it forwards to, on `127.0.0.1`.
    public let upstreamPort: UInt16
    /// The impairments.
    public let profile: LinkProfile
    /// The seed of the faults and the jitter.
    public let seed: UInt64

    private let core: ImpairerCore

    /// Listens on an ephemeral loopback port and starts forwarding to `upstreamPort`.
    /// - Parameters:
    ///   - upstreamPort: The server's port on `127.0.0.1`.
    ///   - profile: The impairments; ``LinkProfile/perfect`` (none) by default.
    ///   - seed: Fixes the faults' byte positions and the jitter; 1 by default.
    /// - Throws: ``TestServerError`` if the listening socket cannot be made.
    public init(upstreamPort: UInt16, profile: LinkProfile = .perfect, seed: UInt64 = 1) throws(TestServerError) {
        core = try ImpairerCore(upstreamPort: upstreamPort, profile: profile, seed: seed)
        port = core.port
        self.upstreamPort = upstreamPort
        self.profile = profile
        self.seed = seed
    }

    deinit { core.stop() }

    /// `http://127.0.0.1:<port>`: the server's base URL, through the impaired link.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// `pathAndQuery` (already percent-encoded) on the server, through the impaired link.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") ?? baseURL
    }

    /// What the impairer has done so far.
    public var statistics: Statistics {
        core.state.withLock { $0.statistics }
    }

    /// The impairer's threads still running: 0 once ``stop()`` has returned.
    public var liveThreadCount: Int {
        core.state.withLock { $0.liveThreads }
    }

    /// Resets every open connection now: both ends get a TCP RST.
    public func resetConnections() {
        for link in core.openLinks { link.reset() }
    }

    /// Stops forwarding on every open connection for `seconds`, in both directions; nothing is
    /// lost, it arrives late. Connections made meanwhile are not stalled.
    public func stallConnections(for seconds: TimeInterval) {
        for link in core.openLinks { link.stall(for: seconds) }
    }

    /// Stops forwarding on every open connection for good, without closing either end; each
    /// ends when one of its ends closes.
    public func halfOpenConnections() {
        for link in core.openLinks { link.goHalfOpen() }
    }

    /// Blocks until at most `count` connections are open, or `timeout` seconds pass.
    /// - Returns: whether the count was reached.
    @discardableResult
    public func waitForOpenConnections(atMost count: Int, timeout: TimeInterval) -> Bool {
        core.state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.links.count <= count }
    }

    /// Stops: closes the listener, resets every open connection and waits (at most 5 s) for the
    /// threads to end. Idempotent; also called from `deinit`.
    public func stop() {
        core.stop()
    }
}
