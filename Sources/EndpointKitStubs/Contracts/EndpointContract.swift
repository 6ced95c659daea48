import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an endpoint is expected to send: method, URL, query, headers, body. Only what is set is
/// checked.
///
/// ```swift
/// let contract = EndpointContract(
///     method: .post, url: "https://api.test/users?notify=true",
///     headers: ["Accept": "application/json"], body: .json(["name": "Ada", "admin": false]))
/// let report = contract.check(CreateUser(name: "Ada"), baseURL: URL(string: "https://api.test")!)
/// // XCTest:        assertEndpoint(CreateUser(name: "Ada"), matches: contract, baseURL: base)
/// // Swift Testing: expectEndpoint(CreateUser(name: "Ada"), matches: contract, baseURL: base)
/// ```
///
/// The request is built with ``/EndpointKit/APIClient/urlRequest(for:)``, exactly as it would be sent, and
/// nothing is sent. Comparisons are semantic: query parameters and form fields are compared
/// percent-decoded and in any order (unless ``ParameterOrder/exact``), header names
/// case-insensitively, JSON bodies as values (key order, spacing and `1` versus `1.0` do not
/// matter), multipart bodies by their parts. The check returns a ``ContractReport`` and never
/// fails a test by itself, so it works with any test framework; the XCTest and Swift Testing
/// adapters turn a report into a failure.
public struct EndpointContract: Sendable {
    /// Whether the order of query parameters, form fields or multipart parts matters.
    public enum ParameterOrder: Sendable, Hashable {
        /// Any order; each name/value pair must appear as often as expected.
        case any
        /// Exactly the expected order.
        case exact
    }

    /// The expected method, or `nil` to not check it.
    public var method: HTTPMethod?
    /// The expected full URL including the query, or `nil`. The query is compared by
    /// ``queryOrder``; everything else exactly (scheme and host case-insensitively).
    public var url: String?
    /// Exactly the expected query parameters (not percent-encoded; list values expand as repeated
    /// keys unless the client says otherwise), or `nil`.
    public var query: QueryItems?
    /// Whether the order of query parameters matters. ``ParameterOrder/any`` by default.
    public var queryOrder: ParameterOrder
    /// Headers that must be present with these values; other headers are allowed.
    public var headers: HTTPHeaders
    /// Headers that must not be present.
    public var absentHeaders: [String]
    /// The expected body, or `nil` to not check it.
    public var body: ExpectedBody?

    /// Creates a contract.
    /// - Parameters:
    ///   - method: The method; `nil` (unchecked) by default.
    ///   - url: The full URL including the query; `nil` (unchecked) by default.
    ///   - query: Exactly these query parameters; `nil` (unchecked) by default.
    ///   - queryOrder: Whether query order matters; ``ParameterOrder/any`` by default.
    ///   - headers: Headers that must be present with these values. None by default.
    ///   - absentHeaders: Headers that must not be present. None by default.
    ///   - body: The body; `nil` (unchecked) by default.
    public init(
        method: HTTPMethod? = nil, url: String? = nil, query: QueryItems? = nil, queryOrder: ParameterOrder = .any,
        headers: HTTPHeaders = .empty, absentHeaders: [String] = [], body: ExpectedBody? = nil
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.queryOrder = queryOrder
        self.headers = headers
        self.absentHeaders = absentHeaders
        self.body = body
    }

    /// Builds `endpoint` against `baseURL` with a default client configuration and checks it.
    /// - Parameters:
    ///   - endpoint: The endpoint value.
    ///   - baseURL: The base URL of the client.
    /// - Returns: The mismatches, if any.
    public func check<Request: APIRequest>(_ endpoint: Request, baseURL: URL) -> ContractReport {
        check(endpoint, client: APIClient(configuration: .init(baseURL: baseURL, transport: StubTransport())))
    }

    /// Builds `endpoint` with `client` (its base URL, default headers, common parameters...) and
    /// checks it. Nothing is sent.
    /// - Parameters:
    ///   - endpoint: The endpoint value.
    ///   - client: The client whose configuration applies.
    /// - Returns: The mismatches, if any; a request that cannot be built is one.
    public func check<Request: APIRequest>(_ endpoint: Request, client: APIClient) -> ContractReport {
        let label = "\(Request.self)"
        do {
            let request = try client.urlRequest(for: endpoint)
            return check(request, label: label, arrayEncoding: client.configuration.arrayEncoding)
        } catch {
            let mismatch = ContractMismatch(.build, "the request could not be built: \(error)")
            return ContractReport(label: label, request: nil, mismatches: [mismatch])
        }
    }

    /// Checks a request a ``StubTransport`` recorded, including a body it streamed from a file
    /// (a file upload or a large multipart body), which a built `URLRequest` does not carry.
    /// - Parameters:
    ///   - recorded: The recorded request.
    ///   - arrayEncoding: How list values in ``query`` and form bodies expand; repeated keys by default.
    /// - Returns: The mismatches, if any.
    public func check(_ recorded: RecordedRequest, arrayEncoding: ArrayEncoding = .repeatedKey) -> ContractReport {
        var request = recorded.urlRequest
        if request.httpBody == nil, !recorded.body.isEmpty { request.httpBody = recorded.body }
        let label = recorded.endpoint.map { "\(type(of: $0))" } ?? "The request"
        return check(request, label: label, arrayEncoding: arrayEncoding)
    }

    /// Checks a request already built, such as `APIClient.urlRequest(for:)` returns. A body the
    /// request streams from a file (`.file(url)`) is not part of a built request: check the
    /// ``RecordedRequest`` of a ``StubTransport`` for it.
    /// - Parameters:
    ///   - request: The request.
    ///   - label: How the report names it; `"The request"` by default.
    ///   - arrayEncoding: How list values in ``query`` and form bodies expand; repeated keys by default.
    /// - Returns: The mismatches, if any.
    public func check(
        _ request: URLRequest, label: String = "The request", arrayEncoding: ArrayEncoding = .repeatedKey
    ) -> ContractReport {
        let checker = ContractChecker(request: request, arrayEncoding: arrayEncoding)
        var mismatches: [ContractMismatch] = []
        if let method { mismatches += checker.checkMethod(method) }
        if let url { mismatches += checker.checkURL(url, order: queryOrder) }
        if let query { mismatches += checker.checkQuery(query, order: queryOrder) }
        mismatches += checker.checkHeaders(headers, absent: absentHeaders)
        if let body { mismatches += checker.checkBody(body) }
        return ContractReport(label: label, request: request, mismatches: mismatches)
    }
}
