#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// How much a server can store in the cookie storage on Linux, for both transports: what a
/// response sets goes through ``StoredCookies/store(_:from:in:)``, never straight into the storage.
///
/// FoundationNetworking's storage has no limit: one response of about 200 KB planted 10,000
/// cookies, storing them took seconds of CPU, and every later request to the host carried an
/// 88 KB `Cookie` header. The limits are RFC 6265 §6.1's minimums, evicting as browsers do
/// (§5.3 step 12, oldest first): a cookie over 4096 bytes (name and value) is ignored; at most 50
/// cookies per domain and 3000 in all; a `Cookie` header of at most 8192 bytes.
extension StoredCookies {
    /// The largest cookie kept, name and value, in bytes.
    static let maximumCookieSize = 4096
    /// The most cookies kept for one domain; the oldest go first.
    static let maximumCookiesPerDomain = 50
    /// The most cookies kept in a storage; the oldest go first.
    static let maximumCookies = 3000
    /// The largest `Cookie` header sent, in bytes (common servers refuse 8-16 KB heads).
    static let maximumHeaderSize = 8192

    /// When each cookie stored here was set, by storage and cookie, to evict the oldest first.
    /// Cookies the storage holds from elsewhere (set by the app, read from disk) count as oldest.
    private static let setOrder = Locked(SetOrder())

    private struct SetOrder {
        var next: UInt64 = 1
        var byStorage: [ObjectIdentifier: [CookieKey: UInt64]] = [:]
    }

    /// What identifies a cookie in a storage (RFC 6265 §5.3 step 11).
    private struct CookieKey: Hashable {
        let name: String
        let domain: String
        let path: String

        init(_ cookie: HTTPCookie) {
            name = cookie.name
            domain = StoredCookies.domainKey(cookie.domain)
            path = cookie.path
        }
    }

    /// Stores the cookies of a response's `Set-Cookie` fields (one value per field), within the
    /// limits: at most ``maximumCookiesPerDomain`` fields of a response are read (its last ones:
    /// a later field replaces an earlier one), cookies over ``maximumCookieSize`` are ignored, and
    /// the oldest cookies of a domain over its limit, then of the storage over its limit, are
    /// deleted. The work is linear in the response and the storage, never in their product.
    /// - Parameter url: The URL of the response.
    static func store(_ fields: [String], from url: URL, in storage: HTTPCookieStorage) {
        guard !fields.isEmpty, storage.cookieAcceptPolicy != .never else { return }
        var cookies: [HTTPCookie] = []
        for field in fields.suffix(maximumCookiesPerDomain) where field.utf8.count <= 2 * maximumCookieSize {
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url)
            where cookie.name.utf8.count + cookie.value.utf8.count <= maximumCookieSize {
                cookies.append(cookie)
            }
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
        let storageID = ObjectIdentifier(storage)
        setOrder.withLock { order in
            for cookie in cookies {
                order.byStorage[storageID, default: [:]][CookieKey(cookie)] = order.next
                order.next += 1
            }
        }
        evict(from: storage, touching: Set(cookies.map { domainKey($0.domain) }))
    }

    /// Deletes the oldest cookies of each domain in `domains` over its limit, then the oldest of
    /// the storage over its limit (expired ones first, in both).
    private static func evict(from storage: HTTPCookieStorage, touching domains: Set<String>) {
        guard let all = storage.cookies else { return }
        let storageID = ObjectIdentifier(storage)
        let now = Date()
        // Expired cookies first, then by when they were set here (0: before this process).
        let ages = setOrder.withLock { order -> [CookieKey: UInt64] in
            // Forget cookies the storage no longer holds, so the table stays as large as the storage.
            let held = Set(all.map(CookieKey.init))
            order.byStorage[storageID] = order.byStorage[storageID, default: [:]].filter { held.contains($0.key) }
            return order.byStorage[storageID, default: [:]]
        }
        func oldestFirst(_ cookies: [HTTPCookie]) -> [HTTPCookie] {
            cookies.map { ($0, ($0.expiresDate.map { $0 <= now } ?? false) ? 0 : 1, ages[CookieKey($0)] ?? 0) }
                .sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map(\.0)
        }
        var deleted = Set<CookieKey>()
        var byDomain: [String: [HTTPCookie]] = [:]
        for cookie in all {
            let domain = domainKey(cookie.domain)
            if domains.contains(domain) { byDomain[domain, default: []].append(cookie) }
        }
        for cookies in byDomain.values where cookies.count > maximumCookiesPerDomain {
            for cookie in oldestFirst(cookies).prefix(cookies.count - maximumCookiesPerDomain) {
                storage.deleteCookie(cookie)
                deleted.insert(CookieKey(cookie))
            }
        }
        let kept = all.filter { !deleted.contains(CookieKey($0)) }
        if kept.count > maximumCookies {
            for cookie in oldestFirst(kept).prefix(kept.count - maximumCookies) {
                storage.deleteCookie(cookie)
                deleted.insert(CookieKey(cookie))
            }
        }
        guard !deleted.isEmpty else { return }
        setOrder.withLock { order in
            for key in deleted { order.byStorage[storageID]?[key] = nil }
        }
    }

    /// A cookie's domain as the limits count it: lowercased, without a leading dot.
    static func domainKey(_ domain: String) -> String {
        let lowered = domain.lowercased()
        return lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered
    }

    /// The `Set-Cookie` field values of a response whose repeated fields were joined with ", "
    /// (FoundationNetworking's `HTTPURLResponse`): a comma starts a new cookie when what follows
    /// it, up to the next `;`, is a `name=value` pair, so the comma of an `Expires` date does not.
    static func setCookieFields(joined value: String) -> [String] {
        var fields: [String] = []
        var current = ""
        for piece in value.split(separator: ",", omittingEmptySubsequences: false) {
            let startsCookie = piece.prefix { $0 != ";" }.contains("=")
            if current.isEmpty {
                current = String(piece)
            } else if startsCookie {
                fields.append(current.trimmingCharacters(in: .whitespaces))
                current = String(piece)
            } else {
                current += "," + piece
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty {
            fields.append(current.trimmingCharacters(in: .whitespaces))
        }
        return fields
    }
}
#endif
