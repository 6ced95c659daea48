import Foundation

/// Where a response came from.
public enum ResponseSource: Sendable, Hashable {
    /// The network.
    case network
    /// The cache, stored `age` seconds ago; `isStale` when past its freshness lifetime (served
    /// offline, or first by ``APIClient/send(_:info:cached:completion:)``).
    case cache(age: TimeInterval, isStale: Bool)
    /// The cache, confirmed unchanged by the server (`304 Not Modified`).
    case revalidated

    /// Whether the body came from the cache.
    package var isCached: Bool { self != .network }
}
