import Foundation

/// A parameter value for a query string or form body: a scalar, a list, or nothing.
///
/// Literals of every common type work, so a parameter list reads like a dictionary:
/// `["page": 2, "tags": ["a", "b"], "verbose": true, "q": "swift"]`.
public enum QueryValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    /// A single value, already converted to text.
    case string(String)
    /// Several values for one name, sent as repeated keys or with brackets (see ``ArrayEncoding``).
    case array([String])
    /// No value: the item is left out of the request.
    case none

    /// Creates a value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates a value from an integer literal.
    public init(integerLiteral value: Int) { self = .string(String(value)) }
    /// Creates a value from a floating-point literal.
    public init(floatLiteral value: Double) { self = .string(String(value)) }
    /// Creates `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .string(value ? "true" : "false") }
    /// Creates a list from an array literal of strings.
    public init(arrayLiteral elements: String...) { self = .array(elements) }
    /// Creates ``none``.
    public init(nilLiteral: ()) { self = .none }

    /// Creates a value from anything with a textual description (numbers, UUIDs, enums...).
    public init(_ value: some CustomStringConvertible) { self = .string(value.description) }

    /// Creates a list from any sequence of describable values.
    public static func list<S: Sequence>(_ values: S) -> QueryValue where S.Element: CustomStringConvertible {
        .array(values.map(\.description))
    }
}

/// How a list value is written into a query string or form body.
public enum ArrayEncoding: Sendable, Hashable {
    /// `tags=a&tags=b` (the default: understood by most servers and by URLSearchParams).
    case repeatedKey
    /// `tags[]=a&tags[]=b` (PHP and Rails style, Alamofire's default).
    case brackets
    /// `tags=a,b`.
    case commaSeparated
}
