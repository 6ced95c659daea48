import Foundation

/// A request written as a value instead of a type, for one-off calls and prototypes.
///
/// An `Endpoint` is an ``APIRequest`` like any declared endpoint: it is built, sent, enveloped,
/// decoded and reported the same way. Use it where declaring a type would be more code than
/// the call:
///
/// ```swift
/// let users = try await client.value(for: Endpoint<[User]>(path: "/users", parameters: .query(["page": 2])))
///
/// let created = await client.send(Endpoint<User>(method: .post, path: "/users", parameters: .json(["name": "Ada"])))
///
/// var legacy = Endpoint<Empty>(method: .delete, path: "/posts/\(id)")
/// legacy.envelope = .statusResult()                     // this request only
/// client.send(legacy) { result in ... }
/// ```
///
/// A `Decodable` response (a model, `Data`, `String`, ``Empty``, an optional) is decoded as a
/// declared endpoint's is, with ``DecodingContext/decodeDefault(_:)``. Any other response type
/// takes a `decode` closure (``init(method:path:parameters:headers:decode:)``).
///
/// Members not stored here keep the ``APIRequest`` defaults, so the client's configuration
/// applies; the endpoint name that plugins and handles see is the type's, for example
/// `"Endpoint<Array<User>>"`. Declare a type once an endpoint is used in more than one place.
public struct Endpoint<Response: Sendable>: APIRequest {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path relative to the base URL; interpolated values are escaped as single segments.
    public var path: RequestPath
    /// Query parameters and body.
    public var parameters: RequestParameters
    /// Header fields, set on top of the client's default headers.
    public var headers: HTTPHeaders
    /// A base URL for this request only, overriding the client's. `nil` (the client's) by default.
    public var baseURL: URL?
    /// The envelope, overriding the client's. `nil` (the client's) by default.
    public var envelope: (any ResponseEnvelope)?
    /// The longest time without a byte sent or received in seconds, overriding the client's.
    /// `nil` (the client's) by default.
    public var idleTimeout: TimeInterval?
    /// The total deadline in seconds, overriding the client's; 0 or less for none. `nil` (the
    /// client's) by default.
    public var totalTimeout: TimeInterval?
    /// What every send of this value tells plugins (feedback switches...). Empty by default.
    public var sendInfo = SendInfo()
    /// What answers a `Basic` or `Digest` challenge from this request's origin (see
    /// ``HTTPCredential``). `nil` (the client's, for its base URL's origin only) by default.
    public var credential: HTTPCredential?
    /// Decides each redirect of this request (see ``APIRequest/redirectHandler``). `nil` (the
    /// client's ``RedirectPolicy`` alone) by default.
    public var redirectHandler: (@Sendable (Redirect) -> RedirectAction)?

    private let decodeResponse: @Sendable (DecodingContext) throws -> Response

    /// Creates a request whose response is not `Decodable`, decoded by a closure of your own.
    ///
    /// ```swift
    /// let avatar = Endpoint<Avatar>(method: .get, path: "/me/avatar") { context in
    ///     try Avatar(pngData: context.data)
    /// }
    /// ```
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path relative to the base URL.
    ///   - parameters: Query parameters and body; none by default.
    ///   - headers: Header fields; none by default.
    ///   - decode: Turns a validated response into the value, as ``APIRequest/decode(_:)`` does.
    ///     It may throw ``BusinessFailure`` to report a "no" from the server; any other error is a
    ///     decoding failure.
    public init(
        method: HTTPMethod, path: RequestPath, parameters: RequestParameters = .none,
        headers: HTTPHeaders = .empty,
        decode: @escaping @Sendable (DecodingContext) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.headers = headers
        decodeResponse = decode
    }

    /// Turns a validated response into the response value: ``DecodingContext/decodeDefault(_:)``
    /// for a `Decodable` response, otherwise the closure given at creation.
    /// - Parameter context: The response body, metadata, decoder and envelope.
    /// - Returns: The response value.
    /// - Throws: ``BusinessFailure`` for a failing business status; any other error is a decoding
    ///   failure.
    public func decode(_ context: DecodingContext) throws -> Response {
        try decodeResponse(context)
    }
}

extension Endpoint where Response: Decodable {
    /// Creates a request whose response is decoded as a declared endpoint's is.
    ///
    /// ```swift
    /// let search = Endpoint<[Repo]>(method: .get, path: "/search", parameters: .query(["q": "swift"]))
    /// ```
    /// - Parameters:
    ///   - method: The HTTP method; `GET` by default.
    ///   - path: The path relative to the base URL.
    ///   - parameters: Query parameters and body; none by default.
    ///   - headers: Header fields; none by default.
    public init(
        method: HTTPMethod = .get, path: RequestPath, parameters: RequestParameters = .none,
        headers: HTTPHeaders = .empty
    ) {
        self.init(method: method, path: path, parameters: parameters, headers: headers) { context in
            try context.decodeDefault(Response.self)
        }
    }
}
