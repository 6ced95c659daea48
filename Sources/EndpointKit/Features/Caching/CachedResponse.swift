import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stored response with what is needed to decide whether it may be used: when it was stored,
/// until when it is fresh, its validators, its version and the request headers it varies on.
package struct CachedResponse: Sendable, Hashable, Codable {
    /// The cache key (method, URL, and credential identity when sensitive data is cached).
    package let key: String
    /// The request URL.
    package let url: URL
    /// The HTTP status code.
    package let statusCode: Int
    /// The response headers.
    package var headers: [String: String] {
        didSet { built = BuiltResponse() }
    }
    /// The raw body, as received (before ``APIRequest/transformBody(_:metadata:)``).
    package var body: Data
    /// When it was stored or last revalidated.
    package var storedAt: Date
    /// Until when it is fresh; `nil` when it must be revalidated before every use.
    package var freshUntil: Date?
    /// The ``CachePolicy/version`` it was stored under.
    package let version: Int
    /// The ``CachePolicy/tags`` it was stored with.
    package let tags: Set<String>
    /// For each header named in the response's `Vary`, the request's value ("" when absent).
    package let varyValues: [String: String]
    /// The `HTTPURLResponse` made from this value on its first use, shared by its copies: making
    /// one costs a cache hit about a fifth of its time. Not part of equality, hashing or coding.
    private var built = BuiltResponse()

    private enum CodingKeys: String, CodingKey {
        case key, url, statusCode, headers, body, storedAt, freshUntil, version, tags, varyValues
    }

    /// The `ETag` validator.
    package var etag: String? { header("ETag") }
    /// The `Last-Modified` validator.
    package var lastModified: String? { header("Last-Modified") }

    /// A response header, by case-insensitive name.
    package func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveEquals(name) }?.value
    }

    /// Seconds since it was stored; infinite if the clock went backwards, so entries never become
    /// immortal.
    package func age(at now: Date = Date()) -> TimeInterval {
        let age = now.timeIntervalSince(storedAt)
        return age >= 0 ? age : .infinity
    }

    /// Whether it may be used without asking the server.
    package func isFresh(at now: Date = Date()) -> Bool {
        guard let freshUntil, now >= storedAt else { return false }
        return now < freshUntil
    }

    /// Whether the stored `Vary` values match a request.
    func matchesVary(of request: URLRequest) -> Bool {
        varyValues.allSatisfy { name, value in (request.value(forHTTPHeaderField: name) ?? "") == value }
    }

    /// The stored response as a transport response for `url`.
    func transportResponse() -> TransportResponse? {
        let head = built.head.withLock { head -> ResponseHead? in
            if let head { return head }
            head = ResponseHead(
                url: url, statusCode: statusCode, fields: headers.map { (name: $0.key, value: $0.value) })
            return head
        }
        guard let head else { return nil }
        return TransportResponse(head: head, data: body)
    }

    /// Builds an entry from a response, or `nil` when the response must not be stored.
    /// - Parameters:
    ///   - response: The response received.
    ///   - request: The request sent (for `Vary`).
    ///   - key: The cache key.
    ///   - policy: The request's policy.
    ///   - isSharedCache: Whether the cache serves several users (`private` is then not stored).
    ///   - now: The time of storage.
    package static func make(
        from response: TransportResponse, request: URLRequest, key: String, policy: CachePolicy, isSharedCache: Bool,
        now: Date = Date()
    ) -> CachedResponse? {
        let http = response.head
        guard [200, 203, 204].contains(http.statusCode), response.fileURL == nil, let url = http.url ?? request.url
        else {
            return nil
        }
        let control = CacheControl(http.value(forHTTPHeaderField: "Cache-Control"))
        let requestControl = CacheControl(request.value(forHTTPHeaderField: "Cache-Control"))
        guard !control.noStore, !requestControl.noStore, !(isSharedCache && control.isPrivate) else { return nil }
        let varyNames = (http.value(forHTTPHeaderField: "Vary") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !varyNames.contains("*") else { return nil }
        var varyValues: [String: String] = [:]
        for name in varyNames { varyValues[name.lowercased()] = request.value(forHTTPHeaderField: name) ?? "" }
        return CachedResponse(
            key: key, url: url, statusCode: http.statusCode, headers: http.dictionary, body: response.data,
            storedAt: now,
            freshUntil: freshness(of: http, control: control, policy: policy, isSharedCache: isSharedCache, now: now),
            version: policy.version, tags: policy.tags, varyValues: varyValues)
    }

    /// When a response stored `now` stops being fresh (RFC 9111 §4.2.1), or `nil`.
    static func freshness(
        of response: ResponseHead, control: CacheControl, policy: CachePolicy, isSharedCache: Bool, now: Date
    ) -> Date? {
        if let lifetime = policy.lifetime { return now.addingTimeInterval(lifetime) }
        guard !control.noCache else { return nil }
        let age = CacheControl.deltaSeconds(response.value(forHTTPHeaderField: "Age") ?? "") ?? 0
        if let maxAge = (isSharedCache ? control.sharedMaxAge : nil) ?? control.maxAge {
            return now.addingTimeInterval(maxAge - age)
        }
        if let expiresValue = response.value(forHTTPHeaderField: "Expires") {
            // `Expires: 0` and other invalid dates mean "already expired".
            guard let expires = HTTPDate.parse(expiresValue) else { return nil }
            let served = HTTPDate.parse(response.value(forHTTPHeaderField: "Date")) ?? now
            return now.addingTimeInterval(expires.timeIntervalSince(served) - age)
        }
        return nil
    }

    /// This entry refreshed by a `304 Not Modified`: new headers merged, new freshness.
    func refreshed(
        by notModified: HTTPURLResponse, policy: CachePolicy, isSharedCache: Bool, now: Date = Date()
    )
        -> CachedResponse
    {
        var copy = self
        for (name, value) in notModified.allHeaderFields {
            guard let name = name as? String, name.lowercased() != "content-length" else { continue }
            copy.headers = copy.headers.filter { !$0.key.caseInsensitiveEquals(name) }
            copy.headers[name] = "\(value)"
        }
        copy.storedAt = now
        let merged = copy.transportResponse()?.head ?? ResponseHead(notModified)
        copy.freshUntil = Self.freshness(
            of: merged, control: CacheControl(merged.value(forHTTPHeaderField: "Cache-Control")), policy: policy,
            isSharedCache: isSharedCache, now: now)
        return copy
    }
}

/// Holds the response made from a `CachedResponse`; every box is equal to every other, so the
/// entry's equality and hash stay those of its stored fields.
private final class BuiltResponse: Sendable, Hashable {
    let head = Locked<ResponseHead?>(nil)

    static func == (lhs: BuiltResponse, rhs: BuiltResponse) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
