import Foundation

/// A scalar read from a response envelope: a business status, an error code.
///
/// Backends disagree on types (`"status": 200`, `"status": "200"`, `"success": true`), so a
/// scalar decodes from any JSON scalar and ``matches(_:)`` compares by value across types:
/// `0`, `"0"` and `0.0` match each other.
public enum EnvelopeScalar: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    /// An integer.
    case int(Int)
    /// A non-integral number.
    case double(Double)
    /// A string.
    case string(String)
    /// A boolean.
    case bool(Bool)

    /// Creates an integer scalar.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// Creates a string scalar.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates a boolean scalar.
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Decodes from any JSON scalar.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the scalar as its JSON type.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }

    /// The value as text: `0`, `1.5`, `ok`, `true`.
    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .double(let value):
            if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
            return String(value)
        case .string(let value): return value
        case .bool(let value): return value ? "true" : "false"
        }
    }

    /// The value as an integer, when it is one (also from integral text or numbers).
    package var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return value.rounded() == value && abs(value) < 1e15 ? Int(value) : nil
        case .string(let value): return Int(value.trimmingCharacters(in: .whitespaces))
        case .bool: return nil
        }
    }

    /// Whether two scalars mean the same value, across JSON types (`0` matches `"0"`).
    public func matches(_ other: EnvelopeScalar) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.bool(let lhs), .bool(let rhs)): return lhs == rhs
        case (.bool, _), (_, .bool): return description == other.description
        default:
            if let lhs = intValue, let rhs = other.intValue { return lhs == rhs }
            return description.trimmingCharacters(in: .whitespaces)
                == other.description.trimmingCharacters(in: .whitespaces)
        }
    }
}
