import Foundation

/// A parameter value for a query string or form body: a scalar, a list, nested parameters, or
/// nothing.
///
/// Literals of every common type work, so a parameter list reads like a dictionary:
/// `["page": 2, "tags": ["a", "b"], "verbose": true, "q": "swift"]`. A dictionary literal makes
/// nested parameters, written in the bracket form PHP and Rails read:
/// `["filter": ["status": "open", "owner": "me"]]` is `filter[status]=open&filter[owner]=me`.
public enum QueryValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A single value, already converted to text.
    case string(String)
    /// Several values for one name, sent as repeated keys or with brackets (see ``ArrayEncoding``).
    case array([String])
    /// Nested parameters, in their order: each is sent under `name[key]`, and nests further
    /// (`a[b][c]=2`). A list inside is written per ``ArrayEncoding`` after its bracketed name
    /// (`a[tags]=x&a[tags]=y`, `a[tags][]=x`, `a[tags]=x,y`); ``none`` inside is left out, and so
    /// is an empty dictionary.
    case dictionary(QueryItems)
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
    /// Creates nested parameters from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        self = .dictionary(QueryItems(elements.map { QueryItems.Item($0.0, $0.1) }))
    }

    /// Creates a value from anything with a textual description (numbers, UUIDs, enums...).
    public init(_ value: some CustomStringConvertible) { self = .string(value.description) }

    /// Creates a list from any sequence of describable values.
    public static func list<S: Sequence>(_ values: S) -> QueryValue where S.Element: CustomStringConvertible {
        .array(values.map(\.description))
    }

    /// Nested parameters from a dictionary built at run time, in the order of their keys (a
    /// `Dictionary` has none of its own): `.dictionary(sortedByKey: filters.mapValues(QueryValue.init))`.
    public static func dictionary(sortedByKey dictionary: [String: QueryValue]) -> QueryValue {
        .dictionary(QueryItems(dictionary.sorted { $0.key < $1.key }.map { QueryItems.Item($0.key, $0.value) }))
    }
}

/// How a list value is written into a query string or form body, at the top level and inside
/// ``QueryValue/dictionary(_:)`` values alike. Nested dictionaries are always written with
/// brackets, whichever this is.
public enum ArrayEncoding: Sendable, Hashable {
    /// `tags=a&tags=b` (the default: understood by most servers and by URLSearchParams).
    case repeatedKey
    /// `tags[]=a&tags[]=b` (PHP and Rails style, Alamofire's default).
    case brackets
    /// `tags=a,b`.
    case commaSeparated
}
