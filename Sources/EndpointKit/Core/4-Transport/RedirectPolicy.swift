import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How transports follow redirects, with safe defaults.
///
/// - At most ``maximumRedirects`` hops (10 by default), then ``TransportError/Reason/tooManyRedirects``.
/// - An `https` request is never redirected to `http` (``TransportError/Reason/insecureRedirect``)
///   unless ``allowsInsecureRedirects`` is set.
/// - When a redirect leaves the original origin (scheme, host, port), `Authorization`, `Cookie`
///   and `Proxy-Authorization` are dropped, so credentials are not handed to another server.
/// - `307` and `308` resend the method and the body (URLSession on Linux drops the body);
///   `301`, `302` and `303` turn a `POST` into a `GET` without a body, as browsers do.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request. 10 by default; 0 to follow none (the 3xx is
    /// then the response).
    public var maximumRedirects: Int
    /// Whether `https` may redirect to `http`. `false` by default.
    public var allowsInsecureRedirects: Bool

    /// Creates a policy.
    public init(maximumRedirects: Int = 10, allowsInsecureRedirects: Bool = false) {
        self.maximumRedirects = max(0, maximumRedirects)
        self.allowsInsecureRedirects = allowsInsecureRedirects
    }

    /// The default policy.
    package static let `default` = RedirectPolicy()

    /// What to do with one redirect.
    package enum Decision: Equatable, Sendable {
        /// Follow it with this request.
        case follow(URLRequest)
        /// Do not follow; the 3xx is the response.
        case stop
        /// Fail the request.
        case fail(TransportError.Reason, String)

        /// Compares decisions (errors by reason and message).
        package static func == (lhs: Decision, rhs: Decision) -> Bool {
            switch (lhs, rhs) {
            case (.follow(let left), .follow(let right)): return left == right
            case (.stop, .stop): return true
            case (.fail(let leftReason, let leftMessage), .fail(let rightReason, let rightMessage)):
                return leftReason == rightReason && leftMessage == rightMessage
            default: return false
            }
        }
    }

    /// Decides a redirect.
    /// - Parameters:
    ///   - original: The request as first sent.
    ///   - status: The redirect's status code.
    ///   - proposed: The request the HTTP stack proposes for the new location.
    ///   - count: How many redirects this one makes (1 for the first).
    package func decide(original: URLRequest, status: Int, proposed: URLRequest, count: Int) -> Decision {
        guard maximumRedirects > 0 else { return .stop }
        guard count <= maximumRedirects else {
            return .fail(.tooManyRedirects, "More than \(maximumRedirects) redirects.")
        }
        guard let from = original.url, let to = proposed.url else {
            return .fail(.badResponse, "A redirect has no URL.")
        }
        if from.scheme?.lowercased() == "https", to.scheme?.lowercased() != "https", !allowsInsecureRedirects {
            return .fail(.insecureRedirect, "A redirect from https to \(to.scheme ?? "?") was refused.")
        }
        var next = proposed
        if [307, 308].contains(status) {
            next.httpMethod = original.httpMethod
            if next.httpBody == nil, let body = original.httpBody { next.httpBody = body }
        }
        if !Self.sameOrigin(from, to) {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return .follow(next)
    }

    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
