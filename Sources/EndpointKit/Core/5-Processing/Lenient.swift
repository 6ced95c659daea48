import Foundation

/// Decodes a property leniently, for backends that are loose with types.
///
/// - A number where a string is declared becomes its text, and numeric text becomes a number
///   (`"42"` → `42`, `1` → `true`, `"yes"` → `true`).
/// - `null`, a missing key, or a value that cannot be converted becomes the type's default
///   (`0`, `""`, `false`, `[]`, `nil`).
///
/// Leniency is opt-in, one property at a time:
///
/// ```swift
/// struct Product: Decodable {
///     let id: Int
///     @Lenient var price: Double      // "12.50" or 12.5
///     @Lenient var tags: [String]     // missing or null -> []
/// }
/// ```
@propertyWrapper
public struct Lenient<Value: LenientDecodable & Sendable>: Sendable {
    /// The decoded (or default) value.
    public var wrappedValue: Value

    /// Wraps a value.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Lenient: Decodable {
    /// Decodes the value, converting or defaulting as described on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let fallback = Value.lenientFallback else {
            wrappedValue = try container.decode(Value.self)
            return
        }
        if container.decodeNil() {
            wrappedValue = fallback
        } else if let value = try? container.decode(Value.self) {
            wrappedValue = value
        } else if let scalar = try? container.decode(EnvelopeScalar.self), let value = Value.converted(from: scalar) {
            wrappedValue = value
        } else {
            wrappedValue = fallback
        }
    }
}

extension Lenient: Encodable where Value: Encodable {
    /// Encodes the wrapped value as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Lenient: Equatable where Value: Equatable {}
extension Lenient: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
    /// Decodes a ``Lenient`` property, using the default when the key is missing.
    public func decode<Value>(_ type: Lenient<Value>.Type, forKey key: Key) throws -> Lenient<Value> {
        if let value = try decodeIfPresent(type, forKey: key) { return value }
        guard let fallback = Value.lenientFallback else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(codingPath: codingPath, debugDescription: "No value for a strict Lenient type.")
            )
        }
        return Lenient(wrappedValue: fallback)
    }
}

/// A type ``Lenient`` can decode: `String`, `Int`, `Int64`, `Double`, `Bool`, arrays and optionals
/// of these.
///
/// The conversions and defaults are EndpointKit's own; a type of yours that adopts this protocol
/// decodes strictly inside `@Lenient` (no conversion, and a missing key is an error).
public protocol LenientDecodable: Decodable {}

extension String: LenientDecodable {}
extension Int: LenientDecodable {}
extension Int64: LenientDecodable {}
extension Double: LenientDecodable {}
extension Bool: LenientDecodable {}
extension Array: LenientDecodable where Element: Decodable {}
extension Optional: LenientDecodable where Wrapped: LenientDecodable {}

/// What ``Lenient`` converts and defaults to, kept off the standard types' public surface.
protocol LenientConvertible {
    /// The value used for `null`, a missing key or an unconvertible value.
    static var lenientDefault: Self { get }
    /// Converts a scalar of another JSON type, or returns `nil`.
    init?(lenient scalar: EnvelopeScalar)
}

extension LenientDecodable {
    /// The type's default, when it has one.
    static var lenientFallback: Self? { (Self.self as? any LenientConvertible.Type)?.lenientDefault as? Self }

    /// `scalar` converted, when the type converts.
    static func converted(from scalar: EnvelopeScalar) -> Self? {
        (Self.self as? any LenientConvertible.Type)?.init(lenient: scalar) as? Self
    }
}

extension String: LenientConvertible {
    /// `""`.
    static var lenientDefault: String { "" }
    /// The scalar's text.
    init?(lenient scalar: EnvelopeScalar) { self = scalar.description }
}

extension Int: LenientConvertible {
    /// `0`.
    static var lenientDefault: Int { 0 }
    /// Integral numbers and numeric text; `true`/`false` as `1`/`0`.
    init?(lenient scalar: EnvelopeScalar) {
        if case .bool(let flag) = scalar {
            self = flag ? 1 : 0
        } else if let value = scalar.intValue {
            self = value
        } else {
            return nil
        }
    }
}

extension Int64: LenientConvertible {
    /// `0`.
    static var lenientDefault: Int64 { 0 }
    /// Integral numbers and numeric text.
    init?(lenient scalar: EnvelopeScalar) {
        guard let value = Int(lenient: scalar) else { return nil }
        self = Int64(value)
    }
}

extension Double: LenientConvertible {
    /// `0`.
    static var lenientDefault: Double { 0 }
    /// Numbers and numeric text.
    init?(lenient scalar: EnvelopeScalar) {
        switch scalar {
        case .int(let value): self = Double(value)
        case .double(let value): self = value
        case .string(let text):
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = value
        case .bool(let flag): self = flag ? 1 : 0
        }
    }
}

extension Bool: LenientConvertible {
    /// `false`.
    static var lenientDefault: Bool { false }
    /// Numbers (non-zero is `true`) and the texts `true`/`false`/`yes`/`no`/`1`/`0`.
    init?(lenient scalar: EnvelopeScalar) {
        switch scalar {
        case .bool(let flag): self = flag
        case .int(let value): self = value != 0
        case .double(let value): self = value != 0
        case .string(let text):
            switch text.lowercased() {
            case "true", "yes", "y", "1": self = true
            case "false", "no", "n", "0", "": self = false
            default: return nil
            }
        }
    }
}

extension Array: LenientConvertible where Element: Decodable {
    /// `[]`.
    static var lenientDefault: [Element] { [] }
    /// A lone scalar is not converted into an array.
    init?(lenient scalar: EnvelopeScalar) { return nil }
}

extension Optional: LenientConvertible where Wrapped: LenientDecodable {
    /// `nil`.
    static var lenientDefault: Wrapped? { nil }
    /// Converts as `Wrapped` would.
    init?(lenient scalar: EnvelopeScalar) {
        guard let value = Wrapped.converted(from: scalar) else { return nil }
        self = .some(value)
    }
}
