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
///
/// A request can follow, refuse or change each redirect itself, within this policy: see
/// ``APIRequest/redirectHandler``.
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
        decide(original: original, status: status, proposed: proposed, count: count, handler: nil, head: nil)
    }

    /// `proposed` with the method and body of `original` on a 307 or 308.
    private static func resending(_ original: URLRequest, status: Int, to proposed: URLRequest) -> URLRequest {
        guard status == 307 || status == 308 else { return proposed }
        var next = proposed
        next.httpMethod = original.httpMethod
        if next.httpBody == nil, let body = original.httpBody { next.httpBody = body }
        return next
    }

    /// Decides a redirect, then asks the request's own `handler`, if it has one, about what the
    /// policy decided (see ``RedirectAction``).
    ///
    /// Without a handler this is ``decide(original:status:proposed:count:)``. The handler is not
    /// asked when the policy follows no redirect (``maximumRedirects`` 0), past the hop limit, or
    /// when a request has no URL; it is asked about an `https` to `http` redirect the policy
    /// refuses, which only ``RedirectAction/sendUnchecked(_:)`` sends.
    /// - Parameters:
    ///   - head: The redirect response, made only when the handler is asked; `nil` fails the
    ///     redirect as a bad response.
    package func decide(
        original: URLRequest, status: Int, proposed: URLRequest, count: Int,
        handler: (@Sendable (Redirect) -> RedirectAction)?, head: @autoclosure () -> ResponseHead?
    ) -> Decision {
        guard maximumRedirects > 0 else { return .stop }
        guard count <= maximumRedirects else {
            return .fail(.tooManyRedirects, "More than \(maximumRedirects) redirects.")
        }
        let judged = secured(Self.resending(original, status: status, to: proposed), from: original)
        guard let handler else { return judged.decision }
        let next: URLRequest
        switch judged {
        case .safe(let request), .insecure(let request): next = request
        case .noURL: return judged.decision
        }
        guard let head = head() else { return .fail(.badResponse, "The redirect response has no valid status.") }
        switch handler(Redirect(head: head, next: next)) {
        case .follow: return judged.decision
        case .stop: return .stop
        case .send(let request):
            if let refusal = Self.refusal(of: request) { return refusal }
            return secured(request, from: original).decision
        case .sendUnchecked(let request):
            return Self.refusal(of: request) ?? .follow(request)
        }
    }

    /// What the safety rules make of a next request.
    private enum Secured {
        /// It may be sent, as it is here (credentials dropped when it leaves the origin).
        case safe(URLRequest)
        /// It goes from `https` to `http`, which the policy refuses; credentials dropped as above.
        case insecure(URLRequest)
        /// It or the original has no URL.
        case noURL

        var decision: Decision {
            switch self {
            case .safe(let next): return .follow(next)
            case .insecure(let next):
                return .fail(
                    .insecureRedirect, "A redirect from https to \(next.url?.scheme ?? "?") was refused.")
            case .noURL: return .fail(.badResponse, "A redirect has no URL.")
            }
        }
    }

    /// Applies the safety rules to `next`, judged against `original` (the request as first sent):
    /// no `https` to `http` unless allowed, no credentials to another origin.
    private func secured(_ next: URLRequest, from original: URLRequest) -> Secured {
        guard let from = original.url, let to = next.url else { return .noURL }
        var next = next
        if !Self.sameOrigin(from, to) {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if from.scheme?.lowercased() == "https", to.scheme?.lowercased() != "https", !allowsInsecureRedirects {
            return .insecure(next)
        }
        return .safe(next)
    }

    /// Why a request a handler chose cannot be sent at all: a URL that is not `http` or `https`
    /// with a host, or a head that is not valid. `nil` when it can.
    private static func refusal(of request: URLRequest) -> Decision? {
        guard let url = request.url, isHTTPWithHost(url) else {
            let location = request.url.map { String($0.absoluteString.prefix(200)) } ?? "none"
            return .fail(.unsupportedURL, "A redirect handler chose an unsupported location (\(location)).")
        }
        if let violation = HeaderFieldRules.refusal(of: request) { return .fail(violation.reason, violation.message) }
        return nil
    }

    /// Whether a redirect may lead to `url`: an `http` or `https` URL with a host. Anything else
    /// (`file:`, `ftp:`, `data:`...) is never sent for a redirect.
    static func isHTTPWithHost(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host?.isEmpty == false
    }

    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && effectivePort(lhs) == effectivePort(rhs)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
