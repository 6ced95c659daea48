import EndpointKit
import Foundation

/// Which requests a stub answers: by endpoint type, by method and path, or by any predicate.
///
/// ```swift
/// stubs.stub(.request(GetUser.self), with: .json(#"{"id":7,"name":"Ada"}"#))
/// stubs.stub(.request(GetUser.self, where: { $0.id == 7 }), with: .status(404))
/// stubs.stub(.path("/users/7", method: .get), with: .json(#"{"id":7,"name":"Ada"}"#))
/// stubs.stub(.matching("has a token") { $0.header("Authorization") != nil }, with: .status(204))
/// ```
public struct StubMatcher: Sendable, CustomStringConvertible {
    /// How the matcher reads in messages, such as `GET /users/7` or `GetUser`.
    public let description: String
    private let test: @Sendable (RecordedRequest) -> Bool

    init(_ description: String, _ test: @escaping @Sendable (RecordedRequest) -> Bool) {
        self.description = description
        self.test = test
    }

    /// Whether `request` matches.
    public func matches(_ request: RecordedRequest) -> Bool { test(request) }

    /// Every request.
    public static var anyRequest: StubMatcher { StubMatcher("any request") { _ in true } }

    /// Requests built from an endpoint of type `Request` (or a subclass of it).
    public static func request<Request: APIRequest>(_ type: Request.Type) -> StubMatcher {
        StubMatcher("\(Request.self)") { $0.endpoint is Request }
    }

    /// Requests built from an endpoint of type `Request` for which `predicate` is true.
    /// - Parameters:
    ///   - type: The endpoint type.
    ///   - predicate: Looks at the endpoint value, for example `{ $0.id == 7 }`.
    public static func request<Request: APIRequest>(
        _ type: Request.Type, where predicate: @escaping @Sendable (Request) -> Bool
    ) -> StubMatcher {
        StubMatcher("\(Request.self) where ...") { request in
            guard let endpoint = request.endpoint as? Request else { return false }
            return predicate(endpoint)
        }
    }

    /// Requests with this path and, unless `nil`, this method.
    ///
    /// `path` is compared with the endpoint's own path (`/users/7`, as in its ``/EndpointKit/RequestPath``) and
    /// with the full URL path (`/v1/users/7` under a base URL `https://api.test/v1`), both
    /// percent-encoded; a path ending in `*` matches every path that starts with the rest.
    /// - Parameters:
    ///   - path: The path, or a prefix followed by `*`.
    ///   - method: The method; `nil` (any method) by default.
    public static func path(_ path: String, method: HTTPMethod? = nil) -> StubMatcher {
        let label = method.map { "\($0) \(path)" } ?? path
        let isPrefix = path.hasSuffix("*")
        let pattern = isPrefix ? String(path.dropLast()) : path
        let matches: @Sendable (String) -> Bool = { isPrefix ? $0.hasPrefix(pattern) : $0 == pattern }
        return StubMatcher(label) { request in
            if let method, request.method != method { return false }
            return matches(request.path) || request.endpoint.map { matches($0.path.encoded) } == true
        }
    }

    /// Requests for which `predicate` is true.
    /// - Parameters:
    ///   - description: How the matcher reads in failure messages.
    ///   - predicate: Whether a request matches.
    public static func matching(
        _ description: String, _ predicate: @escaping @Sendable (RecordedRequest) -> Bool
    ) -> StubMatcher {
        StubMatcher(description, predicate)
    }
}
