/// The path of an endpoint, relative to the base URL, with interpolated values escaped as single
/// path segments.
///
/// Literal text is used as written (characters that cannot appear in a path, such as a space,
/// `?` or `#`, are percent-encoded; existing `%XX` escapes are kept). Every interpolated value
/// becomes exactly one path segment: `/`, `?`, `#` and `%` in it are percent-encoded and a value
/// of `.` or `..` is escaped, so a value like `../admin` cannot change the path:
///
/// ```swift
/// var path: RequestPath { "/users/\(userID)/posts" }   // userID "../admin" -> /users/..%2Fadmin/posts
/// ```
///
/// Use `\(raw: value)` to insert trusted text that may contain `/`.
public struct RequestPath: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The percent-encoded path, as it is appended to the base URL (also its `description`).
    package let encoded: String

    /// Creates a path from already percent-encoded text, used exactly as given.
    public init(percentEncoded: String) { encoded = percentEncoded }

    /// Creates a path from literal text.
    public init(stringLiteral value: String) { encoded = PercentEncoding.encodePathLiteral(value) }

    /// Creates a path from an interpolated string literal.
    public init(stringInterpolation: StringInterpolation) { encoded = stringInterpolation.output }

    /// Creates a path from segments, each escaped as one segment and joined with `/` after a
    /// leading `/`.
    package init(segments: [String]) {
        encoded = "/" + segments.map(PercentEncoding.encodePathSegment).joined(separator: "/")
    }

    /// The percent-encoded path.
    public var description: String { encoded }

    /// Builds a ``RequestPath`` from a string literal with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var output = ""

        /// Creates an empty interpolation buffer.
        public init(literalCapacity: Int, interpolationCount: Int) {
            output.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends literal text (trusted, may contain `/`).
        public mutating func appendLiteral(_ literal: String) {
            output += PercentEncoding.encodePathLiteral(literal)
        }

        /// Appends a value as exactly one percent-encoded path segment.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            output += PercentEncoding.encodePathSegment(value.description)
        }

        /// Appends trusted text like a literal: `/` is kept, so it can span several segments.
        public mutating func appendInterpolation(raw value: some CustomStringConvertible) {
            output += PercentEncoding.encodePathLiteral(value.description)
        }
    }
}
