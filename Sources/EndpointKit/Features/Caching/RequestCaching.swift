import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache as one request sees it: its key, its policy, and the rules for reading and writing.
struct RequestCaching: Sendable {
    let cache: ResponseCache
    let policy: CachePolicy
    let key: String

    /// The caching for a request, or `nil` when it must not touch the cache (method not cacheable,
    /// or credentials without ``CachePolicy/cachesSensitiveData``).
    /// - Parameter credential: What answers the request's challenges, if anything: a credential
    ///   like its `Authorization` header, for the response may be the one it unlocked.
    init?(
        cache: ResponseCache?, policy: CachePolicy, request: URLRequest, method: HTTPMethod,
        credential: HTTPCredential? = nil
    ) {
        guard let cache, policy.cacheableMethods.contains(method), let url = request.url else { return nil }
        var credentials = ["Authorization", "Cookie", "Proxy-Authorization"]
            .compactMap { request.value(forHTTPHeaderField: $0) }
        if let credential { credentials.append("credential \(credential.user):\(credential.password)") }
        var key = "\(method.rawValue) \(url.absoluteString)"
        if !credentials.isEmpty {
            guard policy.cachesSensitiveData else { return nil }
            key += " #identity=" + Digest.hex(credentials.joined(separator: "\n"))
        }
        if let body = request.httpBody, !body.isEmpty {
            key += " #body=" + Digest.hex(body)
        }
        self.cache = cache
        self.policy = policy
        self.key = key
    }

    /// The stored entry usable for this request (same version, same `Vary` values), if any. An
    /// entry of another version is removed.
    func entry(for request: URLRequest) -> CachedResponse? {
        guard let entry = cache.cachedResponse(forKey: key) else { return nil }
        guard entry.version == policy.version else {
            cache.removeEntry(forKey: key)
            return nil
        }
        return entry.matchesVary(of: request) ? entry : nil
    }

    /// The request made conditional on the entry's validators.
    func conditional(_ request: URLRequest, on entry: CachedResponse) -> URLRequest {
        var request = request
        if let etag = entry.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = entry.lastModified {
            request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
        }
        return request
    }

    /// Stores a network response if HTTP rules allow it.
    func store(_ response: TransportResponse, for request: URLRequest) {
        guard
            let entry = CachedResponse.make(
                from: response, request: request, key: key, policy: policy, isSharedCache: cache.isShared)
        else { return }
        cache.store(entry)
    }

    /// The entry refreshed by a `304 Not Modified`, stored.
    func refresh(_ entry: CachedResponse, with notModified: HTTPURLResponse) -> CachedResponse {
        let refreshed = entry.refreshed(by: notModified, policy: policy, isSharedCache: cache.isShared)
        cache.store(refreshed)
        return refreshed
    }

    /// Whether an entry may answer a request whose network attempt failed with `reason`.
    func canServeOffline(_ entry: CachedResponse, after reason: TransportError.Reason) -> Bool {
        guard policy.usesStaleWhenOffline,
            [.notConnected, .cannotConnect, .cannotFindHost, .timedOut].contains(reason)
        else { return false }
        return policy.maximumStaleness.map { entry.age() <= $0 } ?? true
    }
}
