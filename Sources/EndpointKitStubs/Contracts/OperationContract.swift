import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an API's description (an OpenAPI document) says one operation accepts: its method, its
/// path template, its query and header parameters and its body. Where an ``EndpointContract``
/// says what one endpoint value sends, this says what the backend publishes, so a hand-written
/// endpoint can be checked against the document the backend team maintains.
///
/// `endpointkit-openapi` writes one per operation (Docs/OpenAPI.md):
///
/// ```swift
/// let report = Contracts.createUser.check(CreateUser(name: "Ada"), baseURL: URL(string: "https://api.test")!)
/// assertContract(report)   // EndpointKitTesting: fails the test with each difference
/// ```
///
/// The request is built with ``/EndpointKit/APIClient/urlRequest(for:)`` exactly as it would be
/// sent, and nothing is sent. The check finds a different method, a path the template does not
/// match, a query or header parameter the operation does not declare, a required one missing, a
/// value of the wrong type, a body of another content type, and a JSON, form or multipart body that
/// does not have the schema's shape (each place named by its JSON pointer).
public struct OperationContract: Sendable {
    /// A query or header parameter of the operation.
    public struct Parameter: Sendable, Hashable {
        /// The name (case-insensitive for a header).
        public var name: String
        /// Whether every request must carry it.
        public var isRequired: Bool
        /// The shape of its value (a list's elements for a repeated query parameter).
        public var schema: JSONSchema

        /// Creates a parameter.
        /// - Parameters:
        ///   - name: The name.
        ///   - required: Whether every request must carry it; `false` by default.
        ///   - schema: The shape of its value; ``JSONSchema/any`` by default.
        public init(_ name: String, required: Bool = false, schema: JSONSchema = .any) {
            self.name = name
            self.isRequired = required
            self.schema = schema
        }
    }

    /// The request body the operation takes.
    public struct Body: Sendable, Hashable {
        /// Its media type, such as `application/json`, `application/x-www-form-urlencoded` or
        /// `multipart/form-data`.
        public var contentType: String
        /// Its shape: a JSON body is checked whole; a form or multipart body's field or part names
        /// against an object's members.
        public var schema: JSONSchema
        /// Whether every request must carry it.
        public var isRequired: Bool

        /// Creates a body.
        /// - Parameters:
        ///   - contentType: The media type.
        ///   - schema: The shape; ``JSONSchema/any`` by default.
        ///   - required: Whether every request must carry it; `true` by default.
        public init(contentType: String, schema: JSONSchema = .any, required: Bool = true) {
            self.contentType = contentType
            self.schema = schema
            self.isRequired = required
        }
    }

    /// The method.
    public var method: HTTPMethod
    /// The path template, such as `/users/{id}`, below the base URL.
    public var path: String
    /// The query parameters; a request may carry no other.
    public var query: [Parameter]
    /// The header parameters; a request may carry other headers.
    public var headers: [Parameter]
    /// The body, or `nil` when the operation takes none.
    public var body: Body?
    /// The named schemas a ``JSONSchema/reference(_:)`` resolves to.
    public var schemas: [String: JSONSchema]

    /// Creates a contract.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path template, such as `/users/{id}`.
    ///   - query: The query parameters. None by default.
    ///   - headers: The header parameters. None by default.
    ///   - body: The body; none by default.
    ///   - schemas: The named schemas references resolve to. None by default.
    public init(
        method: HTTPMethod, path: String, query: [Parameter] = [], headers: [Parameter] = [], body: Body? = nil,
        schemas: [String: JSONSchema] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.schemas = schemas
    }

    /// Builds `endpoint` against `baseURL` with a default client configuration and checks it.
    /// - Parameters:
    ///   - endpoint: The endpoint value.
    ///   - baseURL: The base URL the path template is below.
    /// - Returns: The differences, if any; a request that cannot be built is one.
    public func check<Request: APIRequest>(_ endpoint: Request, baseURL: URL) -> ContractReport {
        let client = APIClient(configuration: .init(baseURL: baseURL, transport: StubTransport()))
        let label = "\(Request.self)"
        do {
            let request = try client.urlRequest(for: endpoint)
            return ContractReport(label: label, request: request, mismatches: mismatches(request, baseURL: baseURL))
        } catch {
            let mismatch = ContractMismatch(.build, "the request could not be built: \(error)")
            return ContractReport(label: label, request: nil, mismatches: [mismatch])
        }
    }

    private func mismatches(_ request: URLRequest, baseURL: URL) -> [ContractMismatch] {
        let checker = OperationChecker(contract: self, request: request)
        return checker.checkMethod() + checker.checkPath(below: baseURL) + checker.checkQuery() + checker.checkHeaders()
            + checker.checkBody()
    }
}
