#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// Which stored cookies a request carries on Linux (RFC 6265 §5.4), for both transports.
///
/// FoundationNetworking's `HTTPCookieStorage.cookies(for:)` matches the host only, and its
/// URLSession sends all of them. On top of that match, a request sends a `Secure` cookie only
/// over `https`, a cookie only under its path, and no cookie past its expiry date, as URLSession
/// does on Apple platforms (whose storage applies these rules itself). A cookie whose name or
/// value holds CR, LF or NUL is never sent: the storage takes any `HTTPCookie`, and those bytes
/// would split the request (see ``HeaderFieldRules``).
enum StoredCookies {
    /// The `Cookie` header a request to `url` carries from `storage`, or `nil` for none; at most
    /// ``maximumHeaderSize`` bytes (the cookies that do not fit are left out).
    /// - Parameter overHTTPS: Whether `url` is `https`.
    static func header(for url: URL, overHTTPS: Bool, from storage: HTTPCookieStorage) -> String? {
        guard let stored = storage.cookies(for: url), !stored.isEmpty else { return nil }
        var size = 0
        let cookies = sent(stored, to: url, overHTTPS: overHTTPS).filter { cookie in
            // "name=value" and the "; " before it.
            let length = cookie.name.utf8.count + cookie.value.utf8.count + (size == 0 ? 1 : 3)
            guard size + length <= maximumHeaderSize else { return false }
            size += length
            return true
        }
        return cookies.isEmpty ? nil : HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// The cookies of `cookies` (the storage's match for the host) that a request to `url` sends.
    /// - Parameter overHTTPS: Whether `url` is `https`.
    static func sent(_ cookies: [HTTPCookie], to url: URL, overHTTPS: Bool, at now: Date = Date()) -> [HTTPCookie] {
        let path = url.path(percentEncoded: true)
        let requestPath = path.isEmpty ? "/" : path
        return cookies.filter { cookie in
            (overHTTPS || !cookie.isSecure) && (cookie.expiresDate.map { $0 > now } ?? true)
                && pathMatches(requestPath, cookie.path)
                && !cookie.name.utf8.contains(where: HeaderFieldRules.isInjectionByte)
                && !cookie.value.utf8.contains(where: HeaderFieldRules.isInjectionByte)
        }
    }

    /// Whether a request path is under a cookie's path (RFC 6265 §5.1.4): the same path, or one
    /// that continues it after a `/`.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let cookiePath = cookiePath.isEmpty ? "/" : cookiePath
        guard requestPath.utf8.starts(with: cookiePath.utf8) else { return false }
        let rest = requestPath.utf8.dropFirst(cookiePath.utf8.count)
        return rest.isEmpty || cookiePath.utf8.last == UInt8(ascii: "/") || rest.first == UInt8(ascii: "/")
    }
}
#endif
