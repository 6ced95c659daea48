import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request to send after a redirect response, for transports that follow redirects
/// themselves (``CurlTransport``).
///
/// Follows RFC 9110 §15.4: 303 turns into `GET` (except `HEAD`), 301 and 302 turn a `POST` into
/// a `GET`, 307 and 308 keep the method and body. Credentials never cross origins: when the
/// scheme, host or port changes, `Authorization`, `Proxy-Authorization` and `Cookie` are dropped.
enum HTTPRedirect {
    /// The statuses that are followed.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    private static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]
    private static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]

    /// The next request, or `nil` when `status` is not a redirect to follow (no `Location`).
    /// - Throws: ``TransportError`` when the location is not an http(s) URL.
    static func request(
        after request: URLRequest, status: Int, location: String?
    ) throws(TransportError) -> URLRequest? {
        guard statuses.contains(status), let location, !location.isEmpty, let current = request.url else { return nil }
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw TransportError(
                .unsupportedURL, message: "A redirect points to an unsupported location (\(location.prefix(200))).")
        }
        var next = request
        next.url = target
        let method = request.httpMethod?.uppercased() ?? "GET"
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            for name in bodyHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        }
        return droppingCredentials(from: next, after: current)
    }

    /// `request` without `Authorization`, `Proxy-Authorization` and `Cookie` unless it goes to the
    /// same origin as `previous`.
    static func droppingCredentials(from request: URLRequest, after previous: URL?) -> URLRequest {
        guard let previous, let url = request.url, !sameOrigin(previous, url) else { return request }
        var request = request
        for name in credentialHeaders { request.setValue(nil, forHTTPHeaderField: name) }
        return request
    }

    /// Whether two URLs share scheme, host and port (RFC 6454).
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
