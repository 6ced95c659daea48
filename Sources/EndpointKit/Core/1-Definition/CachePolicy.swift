import Foundation

/// How one request uses the client's response cache (`APIClient.Configuration.cache`).
///
/// ```swift
/// struct Banners: APIRequest {
///     ...
///     var cachePolicy: CachePolicy? { CachePolicy(lifetime: 300, version: 2) }   // YTK cacheTimeInSeconds / cacheVersion
/// }
/// ```
///
/// Without a ``lifetime`` the response's own HTTP headers decide (`Cache-Control`, `Expires`,
/// validators); see `Docs/Caching.md` for the full table.
public struct CachePolicy: Sendable, Hashable {
    /// Where a response may come from.
    public enum Mode: Sendable, Hashable {
        /// A fresh cached response if there is one, else the network (revalidating a stale entry
        /// with its ETag or Last-Modified).
        case useCache
        /// Always the network; the response is still stored.
        case ignoreCache
        /// Only the cache, whatever its age; no entry fails with
        /// ``TransportError/Reason/notCached``.
        case cacheOnly
        /// Like ``useCache`` but always asks the server, conditionally when an entry has
        /// validators (the network half of ``APIClient/send(_:info:cached:completion:)``).
        case useCacheRevalidating
    }

    /// Where a response may come from. ``Mode/useCache`` by default.
    public var mode: Mode
    /// How long a stored response is fresh, in seconds, whatever its headers say (YTK
    /// `cacheTimeInSeconds`); `nil` to follow the HTTP headers. `no-store` is always respected.
    public var lifetime: TimeInterval?
    /// Entries stored under another version are ignored and removed (YTK `cacheVersion`).
    public var version: Int
    /// Whether responses to requests with credentials (`Authorization`, `Cookie`) may be stored;
    /// they are then keyed by the credential's identity (YTK `cacheSensitiveData`). `false` by
    /// default.
    public var cachesSensitiveData: Bool
    /// Whether a stale entry answers when the network is unreachable (not connected, cannot
    /// connect or find the host, timed out). `true` by default.
    public var usesStaleWhenOffline: Bool
    /// The oldest entry used when offline, in seconds; `nil` for any age.
    public var maximumStaleness: TimeInterval?
    /// Methods whose responses are cached. `GET` and `HEAD` by default.
    public var cacheableMethods: Set<HTTPMethod>
    /// Labels for invalidation with the cache's `removeAll(tagged:)`.
    public var tags: Set<String>

    /// Creates a policy.
    /// - Parameters:
    ///   - mode: ``Mode/useCache`` by default.
    ///   - lifetime: `nil` (HTTP headers) by default.
    ///   - version: 0 by default.
    ///   - tags: None by default.
    public init(mode: Mode = .useCache, lifetime: TimeInterval? = nil, version: Int = 0, tags: Set<String> = []) {
        self.mode = mode
        self.lifetime = lifetime
        self.version = version
        self.tags = tags
        cachesSensitiveData = false
        usesStaleWhenOffline = true
        maximumStaleness = nil
        cacheableMethods = [.get, .head]
    }

    /// HTTP semantics, fresh entries first.
    package static let `default` = CachePolicy()

    /// Never read or write the cache.
    public static let disabled: CachePolicy = {
        var policy = CachePolicy(mode: .ignoreCache)
        policy.cacheableMethods = []
        policy.usesStaleWhenOffline = false
        return policy
    }()
}
