import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request an HTTP stack proposes after a redirect response, before the client's
/// ``RedirectPolicy`` decides on it; for transports that follow redirects themselves
/// (``CurlTransport``), as URLSession proposes one to its delegate.
///
/// The `Location` is resolved against the current URL; 303 turns into `GET` (except `HEAD`), and
/// 301 and 302 turn a `POST` into a `GET`, without the body (RFC 9110 §15.4). Everything else
/// (the hop limit, https-to-http, credentials across origins, 307/308 bodies) is the policy's.
enum HTTPRedirect {
    /// Whether `status` redirects (301, 302, 303, 307 or 308). Asked of every response: a switch,
    /// with no lazily made set to reach and hash.
    static func redirects(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }

    /// The one redirect rule of both transports: where `location` (a `Location` field exactly as
    /// the server sent it, before any HTTP stack rewrote it) leads from `current`, if that is an
    /// `http` or `https` URL.
    ///
    /// Anything else (`file:`, `ftp:`, `gopher:`, `dict:`, `data:`, a location that is not a URL)
    /// is refused, so that nothing is sent for it: FoundationNetworking, for one, turns
    /// `file:///etc/passwd` into a `GET /etc/passwd` to the same origin.
    /// - Throws: ``TransportError`` with reason ``TransportError/Reason/unsupportedURL``.
    static func target(of location: String, from current: URL) throws(TransportError) -> URL {
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL,
            RedirectPolicy.isHTTPWithHost(target)
        else {
            throw TransportError(
                .unsupportedURL, message: "A redirect points to an unsupported location (\(location.prefix(200))).")
        }
        return target
    }

    private static let bodyHeaders = ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]

    /// The proposed next request, or `nil` when `status` is not a redirect with a `Location`.
    /// - Throws: ``TransportError`` when the location is not an http(s) URL.
    static func proposedRequest(
        after request: URLRequest, status: Int, location: String?
    ) throws(TransportError) -> URLRequest? {
        guard redirects(status), let location, !location.isEmpty, let current = request.url else { return nil }
        let target = try self.target(of: location, from: current)
        var next = request
        next.url = target
        let method = request.httpMethod?.uppercased() ?? "GET"
        if (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            for name in bodyHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        }
        return next
    }
}
