#if os(Linux) && canImport(CCurlShim)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stored cookies a request carries (RFC 6265 §5.4).
///
/// FoundationNetworking's `HTTPCookieStorage.cookies(for:)` matches the host only. On top of it,
/// a request sends a `Secure` cookie only over `https`, a cookie only under its path, and no
/// cookie past its expiry date, as URLSession does on Apple platforms.
enum CurlCookies {
    /// The cookies of `cookies` (the storage's match for the host) that a request to `url` sends.
    /// - Parameter overHTTPS: Whether `url` is `https` (the transfer has read its scheme already).
    static func sent(_ cookies: [HTTPCookie], to url: URL, overHTTPS: Bool, at now: Date = Date()) -> [HTTPCookie] {
        let path = url.path(percentEncoded: true)
        let requestPath = path.isEmpty ? "/" : path
        return cookies.filter { cookie in
            (overHTTPS || !cookie.isSecure) && (cookie.expiresDate.map { $0 > now } ?? true)
                && pathMatches(requestPath, cookie.path)
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
