import Dispatch
import Foundation

extension APIClient {
    /// Every setting of a client, in one place: those of the request path, and those of the
    /// features under Features/ (cache, connectivity, downloads, coalescing). Requests override
    /// some of them.
    public struct Configuration: Sendable {
        /// The base URL that request paths are appended to. Requests may override it.
        public var baseURL: URL?
        /// Headers sent with every request; a request's own headers win. None by default.
        public var defaultHeaders: HTTPHeaders
        /// Parameters sent with every request, such as an app version or a device id: in the query
        /// string before the request's own unless ``commonParameterPlacement`` says otherwise.
        /// None by default.
        public var commonParameters: QueryItems
        /// Where ``commonParameters`` go: the query string, the body, or both.
        /// ``CommonParameterPlacement/query`` by default.
        public var commonParameterPlacement: CommonParameterPlacement
        /// How list values are written in queries and form bodies. ``ArrayEncoding/repeatedKey``
        /// by default.
        public var arrayEncoding: ArrayEncoding
        /// How long a request may take to connect, stay silent and run in all, unless it sets its
        /// own (``APIRequest/idleTimeout``...). Connect 30 s, idle 60 s, no total deadline by
        /// default: see ``Timeouts``.
        public var timeouts: Timeouts
        /// The envelope for requests that do not set one. ``NoEnvelope`` by default.
        public var envelope: any ResponseEnvelope
        /// The decoder for requests that do not set one. A plain `JSONDecoder` by default.
        public var decoder: JSONDecoder
        /// The encoder for `Encodable` bodies of requests that do not set one.
        public var encoder: JSONEncoder
        /// Acceptable status codes and content types. `ResponseValidation()` (`2xx`, any content type)
        /// by default.
        public var validation: ResponseValidation
        /// A check of every response, after ``validation``'s rules and before the request's own
        /// ``APIRequest/validate(_:)``, with the same contract: throw ``BusinessFailure`` for a
        /// ``ServerFailure``, any other error for a ``TransportError`` with reason
        /// ``TransportError/Reason/badResponse``. `nil` (none) by default.
        public var validator: (@Sendable (ResponseMetadata) throws -> Void)?
        /// The largest response body kept in memory, in bytes. 64 MiB by default.
        public var maximumResponseSize: Int
        /// The transport. By default a new one from ``makeDefaultTransport()``: ``CurlTransport`` on
        /// Linux, ``URLSessionTransport`` elsewhere.
        public var transport: any Transport
        /// Decides last whether a failed request is sent again, unless the request has its own
        /// ``APIRequest/retrier``. `nil` (never retry) by default; usually a retry policy with
        /// backoff.
        public var retrier: (any RequestRetrier)?
        /// Interceptors that adapt every request and decide retries, in order, before the
        /// ``retrier``. None by default.
        public var interceptors: [any RequestInterceptor]
        /// Plugins that observe every request. None by default.
        public var plugins: [any APIPlugin]
        /// How redirects are followed. `RedirectPolicy()` (10 hops, no https-to-http,
        /// credentials dropped across origins, body kept on 307/308).
        public var redirectPolicy: RedirectPolicy
        /// What answers a `Basic` or `Digest` challenge (a `401` with `WWW-Authenticate`) from the
        /// origin of ``baseURL``, once, for requests that have no ``APIRequest/credential`` of their
        /// own; see ``HTTPCredential``. A request sent to any other origin never carries it. `nil`
        /// by default.
        public var credential: HTTPCredential?
        /// Whether identical `GET` and `HEAD` requests in flight (same endpoint type, method, URL,
        /// headers and body) share one transfer, each caller still getting its own result. `false`
        /// by default: ten sends are ten requests. A request's own
        /// ``APIRequest/coalescesIdenticalRequests`` wins.
        public var coalescesIdenticalRequests: Bool
        /// The response cache; `nil` (no caching) by default.
        public var cache: ResponseCache?
        /// The cache policy of requests that do not set one. `CachePolicy()` (HTTP semantics) by default.
        public var cachePolicy: CachePolicy
        /// Watches the network; with ``failsFastWhenOffline`` requests fail at once (or are answered
        /// from the cache) while it reports no connection. `nil` by default.
        public var connectivity: ConnectivityMonitor?
        /// Whether requests fail with ``TransportError/Reason/notConnected`` without trying while
        /// ``connectivity`` reports no connection. `false` by default.
        public var failsFastWhenOffline: Bool
        /// Where resumable downloads keep their partial files until they complete. A folder in the
        /// temporary directory by default.
        public var partialDownloadsDirectory: URL

        /// Creates a configuration.
        /// - Parameters:
        ///   - baseURL: The base URL, `nil` by default (then every request must set its own).
        ///   - transport: The transport; a new ``makeDefaultTransport()`` by default.
        public init(baseURL: URL? = nil, transport: (any Transport)? = nil) {
            self.baseURL = baseURL
            defaultHeaders = HTTPHeaders.empty
            commonParameters = QueryItems()
            commonParameterPlacement = .query
            arrayEncoding = .repeatedKey
            timeouts = Timeouts()
            envelope = NoEnvelope()
            decoder = JSONDecoder()
            encoder = JSONEncoder()
            validation = .default
            maximumResponseSize = 64 * 1024 * 1024
            self.transport = transport ?? Self.makeDefaultTransport()
            retrier = nil
            interceptors = []
            plugins = []
            redirectPolicy = .default
            credential = nil
            coalescesIdenticalRequests = false
            cache = nil
            cachePolicy = .default
            connectivity = nil
            failsFastWhenOffline = false
            partialDownloadsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "EndpointKit-PartialDownloads", isDirectory: true)
        }
    }
}
