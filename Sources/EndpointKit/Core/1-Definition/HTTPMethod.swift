/// An HTTP request method.
///
/// The common methods are provided as static members; any other token can be created with
/// ``init(rawValue:)`` (for example `HTTPMethod(rawValue: "PROPFIND")`).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. The token is sent as given (methods are case-sensitive).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The method token.
    public var description: String { rawValue }

    /// `GET`: retrieve a representation.
    public static let get: HTTPMethod = "GET"
    /// `POST`: submit data to be processed.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace a resource.
    public static let put: HTTPMethod = "PUT"
    /// `DELETE`: remove a resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `PATCH`: partially modify a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// `HEAD`: like `GET` without a response body.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`: describe the communication options.
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether the method is idempotent per RFC 9110 §9.2.2 (`GET`, `HEAD`, `OPTIONS`, `PUT`,
    /// `DELETE`, `TRACE`).
    package var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE": return true
        default: return false
        }
    }

    /// Whether URLSession allows a body for this method (it rejects a `GET` with a body).
    var allowsBody: Bool { self != .get && self != .head }
}
