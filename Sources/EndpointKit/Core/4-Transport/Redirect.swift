import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One redirect a request's ``APIRequest/redirectHandler`` is asked about: the redirect response
/// and the request the client would send next.
///
/// ``next`` is the request after the client's ``RedirectPolicy`` and its safety rules: the
/// `Location` resolved, the method and body a 301, 302, 303, 307 or 308 calls for, and
/// `Authorization`, `Cookie` and `Proxy-Authorization` dropped when it leaves the original
/// request's origin. When the policy refuses the redirect because it goes from `https` to
/// `http`, ``next`` is that insecure request: only ``RedirectAction/sendUnchecked(_:)`` sends it.
public struct Redirect: Sendable {
    /// The redirect response (301, 302, 303, 307 or 308), with its `Location` header.
    ///
    /// Made the first time it is read: a transport that parses heads itself
    /// (``CurlTransport``) makes no `HTTPURLResponse` for a handler that does not look.
    public var response: HTTPURLResponse { head.response }
    /// What the client would send next, the safety rules applied.
    public let next: URLRequest
    let head: ResponseHead

    init(head: ResponseHead, next: URLRequest) {
        self.head = head
        self.next = next
    }

    /// A redirect made by hand, to unit-test a ``APIRequest/redirectHandler``:
    ///
    /// ```swift
    /// let moved = HTTPURLResponse(
    ///     url: URL(string: "https://api.example.com/files/7")!, statusCode: 302, httpVersion: nil,
    ///     headerFields: ["Location": "https://cdn.example.com/files/7"])!
    /// let redirect = Redirect(response: moved, next: URLRequest(url: URL(string: "https://cdn.example.com/files/7")!))
    /// ```
    /// - Parameters:
    ///   - response: The redirect response.
    ///   - next: The request the client would send next.
    public init(response: HTTPURLResponse, next: URLRequest) {
        self.init(head: ResponseHead(response), next: next)
    }
}

/// What a request does with one redirect: the answer of its ``APIRequest/redirectHandler``.
///
/// Whatever the answer, the client's ``RedirectPolicy/maximumRedirects`` still counts the hops,
/// and a request is never sent to anything but an `http` or `https` URL.
public enum RedirectAction: Sendable {
    /// Send ``Redirect/next``, as the client would without a handler.
    case follow
    /// Do not follow: the redirect response is the result, validated like any response (a 3xx is
    /// a ``ServerFailure`` unless the request's ``ResponseValidation`` accepts it).
    case stop
    /// Send this request instead, for example with a header added or another path. The safety
    /// rules are applied to it again, against the original request: `Authorization`, `Cookie` and
    /// `Proxy-Authorization` are dropped if it goes to another origin, and `https` to `http` is
    /// refused (``TransportError/Reason/insecureRedirect``) unless
    /// ``RedirectPolicy/allowsInsecureRedirects``.
    case send(URLRequest)
    /// Send exactly this request: the explicit opt-out of the safety rules. Its credentials are
    /// kept on any origin and it may go from `https` to `http`; it must still be an `http` or
    /// `https` URL with a valid head, and the hop limit still applies.
    case sendUnchecked(URLRequest)
}
