#if os(Linux) && canImport(CCurlShim)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` on the system libcurl (`libcurl.so.4`), for Linux.
///
/// What it adds over ``URLSessionTransport`` on Linux:
/// - every ``ServerTrustPolicy``: custom roots, pinned certificates, pinned public keys;
/// - every limit of ``Timeouts``: a connect timeout, an idle timeout driven by libcurl's byte
///   counters, and a true total deadline (`CURLOPT_TIMEOUT_MS`);
/// - redirects followed here under the request's ``RedirectPolicy`` (307/308 resend their body,
///   also a body streamed from a file);
/// - uploads streamed from a file, downloads written to a file (resumed `206`s appended), progress;
/// - a 401 with `WWW-Authenticate` is an ordinary response (no hang);
/// - speed: one event-loop thread drives a multi handle, with connection reuse, HTTP/2 where the
///   server offers it, and decompression of gzip, deflate, brotli and zstd bodies.
///
/// ```swift
/// let transport = try CurlTransport(serverTrustPolicy: .pinnedPublicKeys(["sha256//..."]))
/// let client = APIClient(configuration: .init(baseURL: url, transport: transport))
/// ```
///
/// Completions run on the transport's event-loop thread; keep them short (``APIClient`` only
/// hands the result to its own queue there). Creating the transport loads libcurl and checks the
/// trust policy: a missing or too old libcurl, or a policy it cannot enforce, throws
/// ``TransportConfigurationError`` then, never at the first request.
public final class CurlTransport: Transport {
    /// Settings of a ``CurlTransport``.
    public struct Configuration: Sendable {
        /// How servers' certificates are checked. ``ServerTrustPolicy/system`` by default.
        public var serverTrustPolicy: ServerTrustPolicy
        /// The `User-Agent` sent when a request has none, as URLSession sends one. `nil` (the
        /// default) sends `<process name> EndpointKit libcurl/<version>`; an empty string, or one
        /// with CR or LF, sends none.
        public var userAgent: String?
        /// Where cookies are stored and read, as URLSession does: `Set-Cookie` answers are saved
        /// (also on redirects), and requests that do not set their own `Cookie` header send the
        /// matching cookies on every hop.
        /// `HTTPCookieStorage.shared` by default (shared with URLSession); `nil` for none.
        public var cookieStorage: HTTPCookieStorage?
        /// The certificate presented to `https` servers that ask for one (mutual TLS), unless
        /// ``clientCertificatesByHost`` has one for the host; `nil` (the default) for none. It is
        /// shown to every server that asks: when the client talks to several, prefer
        /// ``clientCertificatesByHost``.
        public var clientCertificate: ClientCertificate?
        /// Certificates presented to particular hosts, by host name as in the URL
        /// (case-insensitive), instead of ``clientCertificate``. Empty by default.
        public var clientCertificatesByHost: [String: ClientCertificate] = [:]

        /// Creates a configuration.
        /// - Parameter serverTrustPolicy: How certificates are checked; ``ServerTrustPolicy/system``
        ///   by default.
        public init(serverTrustPolicy: ServerTrustPolicy = .system) {
            self.serverTrustPolicy = serverTrustPolicy
            cookieStorage = .shared
        }
    }

    /// What every transfer of this transport is configured with. A class: each transfer keeps a
    /// reference instead of a copy.
    final class Settings: Sendable {
        let trust: CurlTrustOptions
        let cookieStorage: HTTPCookieStorage?
        /// The client certificates, checked.
        let clientCertificates: HostSelection<CurlClientCertificate>
        /// Header lines added when the request lacks that header (name lowercased, line).
        let defaultHeaders: [(name: String, line: String)]
        /// `defaultHeaders` as one libcurl list, for the requests that add no header of their own.
        let defaultHeaderList: CurlHeaderList

        init(
            trust: CurlTrustOptions, cookieStorage: HTTPCookieStorage?,
            clientCertificates: HostSelection<CurlClientCertificate>, defaultHeaders: [(name: String, line: String)]
        ) {
            self.trust = trust
            self.cookieStorage = cookieStorage
            self.clientCertificates = clientCertificates
            self.defaultHeaders = defaultHeaders
            defaultHeaderList = CurlHeaderList(defaultHeaders.map(\.line))
        }
    }

    /// The configuration the transport was created with.
    let configuration: Configuration
    private let settings: Settings
    private let loop: CurlEventLoop

    /// Creates a transport with its own event-loop thread and connection pool.
    /// - Throws: ``TransportConfigurationError/libraryUnavailable(_:)`` if libcurl cannot be loaded
    ///   or cannot enforce the trust policy;
    ///   ``TransportConfigurationError/unusableClientCertificate(_:_:)`` if libcurl cannot use a
    ///   client certificate (a wrong password, a key it cannot read).
    public init(configuration: Configuration = Configuration()) throws(TransportConfigurationError) {
        try CurlLibrary.load()
        self.configuration = configuration
        settings = Settings(
            trust: try CurlTrustOptions(configuration.serverTrustPolicy),
            cookieStorage: configuration.cookieStorage,
            clientCertificates: try HostSelection(
                fallback: configuration.clientCertificate, byHost: configuration.clientCertificatesByHost
            ).map(CurlClientCertificate.init),
            defaultHeaders: Self.defaultHeaders(userAgent: configuration.userAgent))
        loop = try CurlEventLoop()
    }

    /// Creates a transport that checks certificates with `serverTrustPolicy`.
    /// - Throws: ``TransportConfigurationError``, as ``init(configuration:)``.
    package convenience init(serverTrustPolicy: ServerTrustPolicy) throws(TransportConfigurationError) {
        try self.init(configuration: Configuration(serverTrustPolicy: serverTrustPolicy))
    }

    deinit { loop.stop() }

    /// The version of the libcurl in use (e.g. `7.88.1`), or `nil` if it cannot be loaded.
    package static var libraryVersion: String? {
        do {
            try CurlLibrary.load()
            return CurlLibrary.version
        } catch {
            return nil
        }
    }

    /// The transport's event-loop thread as a task executor.
    ///
    /// Code that runs under `withTaskExecutorPreference(transport.executor)` builds, sends,
    /// processes and decodes its requests on the thread that drives libcurl: a response reaches
    /// the code awaiting it without a thread hop, which makes chains of requests and many small
    /// requests in flight faster (see Docs/Performance.md). Child tasks inherit the preference.
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(transport.executor) {
    ///     for id in ids { users.append(try await client.value(for: GetUser(id: id))) }
    /// }
    /// ```
    ///
    /// That code shares the thread with every transfer of this transport: keep long computations
    /// and blocking calls out of it. Without the preference, nothing runs on this thread but
    /// libcurl and the transport.
    public var executor: any TaskExecutor { loop }

    /// The number of transfers whose libcurl handle is alive (running, or cancelled and not yet
    /// removed by the event loop).
    @_spi(Internal) public var activeTransferCount: Int { loop.liveTransferCount }

    /// Starts a transfer; see ``Transport/execute(_:completion:)``. Honours every field of the
    /// request: timeouts, size cap, body file, download target, progress and redirect policy
    /// (`priority` is not used: libcurl has no priority between transfers).
    public func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        // `URLRequest.url` copies the URL out of its storage: read once, here, for the transfer too.
        let url = request.urlRequest.url
        guard let url, CurlTransfer.isHTTPOrHTTPS(url.absoluteString) else {
            return fail(
                TransportError(
                    .unsupportedURL, message: "Only http and https URLs are supported (\(url?.scheme ?? "none"))."),
                completion)
        }
        guard
            let transfer = CurlTransfer(
                request: request, url: url, settings: settings, loop: loop, completion: completion)
        else {
            return fail(TransportError(.other, message: "curl_easy_init failed."), completion)
        }
        if let error = transfer.configure() {
            transfer.finish(.failure(error))
        } else if !loop.submit(transfer) {
            transfer.finish(.failure(.cancelled()))
        }
        return transfer
    }

    /// `Accept-Encoding` (what libcurl decodes), `User-Agent` and `Accept-Language` (the user's
    /// preferred languages), as URLSession adds them.
    private static func defaultHeaders(userAgent: String?) -> [(name: String, line: String)] {
        // Decoding stays libcurl's (`CURLOPT_ACCEPT_ENCODING`); a request's own header replaces this one.
        var headers: [(name: String, line: String)] = [
            ("accept-encoding", "Accept-Encoding: \(CurlLibrary.acceptEncodings)")
        ]
        let userAgent = userAgent ?? "\(ProcessInfo.processInfo.processName) EndpointKit libcurl/\(CurlLibrary.version)"
        if !userAgent.isEmpty, !userAgent.contains(where: { $0 == "\r" || $0 == "\n" }) {
            headers.append(("user-agent", "User-Agent: \(userAgent)"))
        }
        let languages = Locale.preferredLanguages.prefix(6).enumerated().map { index, language in
            index == 0 ? language : "\(language);q=0.\(9 - index)"
        }
        if !languages.isEmpty {
            headers.append(("accept-language", "Accept-Language: " + languages.joined(separator: ", ")))
        }
        return headers
    }

    private func fail(
        _ error: TransportError,
        _ completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        DispatchQueue.global().async { completion(.failure(error)) }
        return FinishedTransportTask()
    }
}
#endif
