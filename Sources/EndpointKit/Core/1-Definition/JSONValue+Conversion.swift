import Foundation

/// Why a value could not be turned into JSON, or JSON into a value.
///
/// Thrown by the ``JSONValue`` conversions (``JSONValue/init(encoding:encoder:)``,
/// ``JSONValue/decoded(as:decoder:)``, ``JSONValue/init(jsonObject:)``,
/// ``JSONValue/init(jsonString:)``). A `path` says where the problem is, from `$` (the whole
/// value) through keys and indexes: `$.user.tags[2]`.
public enum JSONConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A Foundation object graph holds something JSON has no form for: a `Date`, a custom class,
    /// a dictionary key that is not a string, a number that is not finite.
    case notJSON(path: String, found: String)
    /// The text is not valid JSON (or not UTF-8).
    case invalidJSONText(reason: String)
    /// The `Encodable` value could not be encoded.
    case encodingFailed(path: String, reason: String)
    /// The JSON does not decode as the requested type.
    case decodingFailed(path: String, reason: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .notJSON(let path, let found): return "The value at \(path) is not JSON: \(found)."
        case .invalidJSONText(let reason): return "The text is not valid JSON: \(reason)"
        case .encodingFailed(let path, let reason): return "The value at \(path) could not be encoded: \(reason)"
        case .decodingFailed(let path, let reason): return "The JSON at \(path) could not be decoded: \(reason)"
        }
    }
}

extension JSONValue {
    /// Creates the JSON form of an `Encodable` value, as `encoder` writes it.
    ///
    /// ```swift
    /// let json = try JSONValue(encoding: user)          // ["id": 7, "name": "Ada"]
    /// let text = try JSONValue(encoding: user).jsonString()
    /// ```
    ///
    /// The encoder's strategies (dates, keys, data) apply. Numbers are kept as the encoder writes
    /// them: an integer is ``int(_:)``; a `Double` with no fractional part may be written, and so
    /// read back, as an integer.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder; a default `JSONEncoder` unless given.
    /// - Throws: ``JSONConversionError/encodingFailed(path:reason:)`` when the value does not
    ///   encode (for example a `Double.nan` with the default encoder).
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws(JSONConversionError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw JSONConversionError(encoding: error)
        }
        self = try JSONValue(jsonData: data)
    }

    /// Decodes a value of type `type` from this JSON, as `decoder` reads it.
    ///
    /// ```swift
    /// let user = try JSONValue(jsonObject: dictionary).decoded(as: User.self)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a default `JSONDecoder` unless given. Its strategies apply.
    /// - Returns: The decoded value.
    /// - Throws: ``JSONConversionError/decodingFailed(path:reason:)`` when the JSON does not have
    ///   the shape of `type`; ``JSONConversionError/notJSON(path:found:)`` when this value holds a
    ///   number that is not finite.
    public func decoded<T: Decodable>(
        as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()
    )
        throws(JSONConversionError) -> T
    {
        let data = try jsonData()
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw JSONConversionError(decoding: error)
        }
    }

    /// Creates a value from a Foundation object graph, such as the `[String: Any]` that
    /// `JSONSerialization` returns or that older code builds by hand.
    ///
    /// ```swift
    /// let json = try JSONValue(jsonObject: ["id": 7, "name": "Ada", "tags": ["a", "b"]])
    /// ```
    ///
    /// Accepted: `NSNull` and `nil` (as ``null``), `Bool`, the integer types, `Double`, `Float`,
    /// `Decimal`, `NSNumber`, `String`, arrays and dictionaries with `String` keys. A boolean
    /// `NSNumber` is ``bool(_:)``, an integral one ``int(_:)`` (an unsigned value beyond
    /// `Int.max` becomes ``double(_:)``, as it does when JSON text is decoded), a floating-point
    /// one ``double(_:)``.
    /// - Parameter jsonObject: The object graph.
    /// - Throws: ``JSONConversionError/notJSON(path:found:)`` for anything else, and for numbers
    ///   that are not finite.
    public init(jsonObject: Any) throws(JSONConversionError) {
        self = try JSONValue.converting(jsonObject, at: "$")
    }

    /// The value as a Foundation object graph: `NSNull`, `Bool`, `Int`, `Double`, `String`,
    /// `[Any]` and `[String: Any]`, as `JSONSerialization` and `[String: Any]` APIs expect.
    public var jsonObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(\.jsonObject)
        case .object(let members): return members.mapValues(\.jsonObject)
        }
    }

    /// Parses JSON text: an object, an array or a single value.
    ///
    /// ```swift
    /// let json = try JSONValue(jsonString: #"{"id":7,"name":"Ada"}"#)
    /// ```
    ///
    /// A number without a fraction or exponent that fits `Int` is ``int(_:)``; any other number is
    /// ``double(_:)``.
    /// - Parameter jsonString: The text.
    /// - Throws: ``JSONConversionError/invalidJSONText(reason:)`` when it is not valid JSON.
    public init(jsonString: String) throws(JSONConversionError) {
        self = try JSONValue(jsonData: Data(jsonString.utf8))
    }

    /// The value as JSON text.
    ///
    /// ```swift
    /// try JSONValue(encoding: user).jsonString()          // {"id":7,"name":"Ada"}
    /// ```
    ///
    /// Slashes are not escaped. A ``double(_:)`` that is not finite (which only a value built by
    /// hand can hold) is written as `null`, as JavaScript's `JSON.stringify` does.
    /// - Parameters:
    ///   - prettyPrinted: Whether to indent and break lines; `false` (compact) by default.
    ///   - sortedKeys: Whether object keys are written in sorted order, so the text is stable;
    ///     `true` by default.
    /// - Returns: The JSON text.
    public func jsonString(prettyPrinted: Bool = false, sortedKeys: Bool = true) -> String {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = [.withoutEscapingSlashes]
        if prettyPrinted { formatting.insert(.prettyPrinted) }
        if sortedKeys { formatting.insert(.sortedKeys) }
        encoder.outputFormatting = formatting
        let data = (try? encoder.encode(self)) ?? (try? encoder.encode(withFiniteNumbers)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONValue {
    /// Parses JSON data with `JSONSerialization`, which tells `2.0` (a double) from `2` (an
    /// integer), unlike `JSONDecoder`.
    init(jsonData data: Data) throws(JSONConversionError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let debugDescription = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw .invalidJSONText(reason: debugDescription ?? error.localizedDescription)
        }
        self = try JSONValue.converting(object, at: "$")
    }

    /// The value as compact JSON data, for a decoder.
    func jsonData() throws(JSONConversionError) -> Data {
        do {
            return try JSONEncoder().encode(self)
        } catch {
            // Encoding a JSONValue fails only for a number that is not finite.
            var path = "$"
            if case EncodingError.invalidValue(_, let context) = error {
                path = JSONConversionError.path(context.codingPath)
            }
            throw .notJSON(path: path, found: "a number that is not finite")
        }
    }

    /// This value with every number that is not finite replaced by ``null``.
    var withFiniteNumbers: JSONValue {
        switch self {
        case .double(let value) where !value.isFinite: return .null
        case .array(let values): return .array(values.map(\.withFiniteNumbers))
        case .object(let members): return .object(members.mapValues(\.withFiniteNumbers))
        default: return self
        }
    }

    /// Converts one node of a Foundation object graph found at `path`.
    private static func converting(_ object: Any, at path: String) throws(JSONConversionError) -> JSONValue {
        if let optional = object as? any OptionalValue {
            guard let wrapped = optional.wrappedValue else { return .null }
            return try converting(wrapped, at: path)
        }
        // Exact types before casts: `as?` bridges between Bool, the integers, Double and NSNumber,
        // which would turn `1` into `true` or `true` into `1`.
        let objectType = type(of: object)
        if objectType is NSNumber.Type, let number = object as? NSNumber { return try converting(number, at: path) }
        if objectType == Bool.self, let value = object as? Bool { return .bool(value) }
        if let value = object as? any BinaryInteger {
            if let exact = Int(exactly: value) { return .int(exact) }
            return .double(Double(value))
        }
        if objectType == Double.self, let value = object as? Double { return try finite(value, at: path) }
        if objectType == Float.self, let value = object as? Float { return try finite(value, at: path) }
        if objectType == Decimal.self, let value = object as? Decimal { return try converting(value, at: path) }
        if object is NSNull { return .null }
        if let value = object as? String { return .string(value) }
        if let values = object as? [Any] {
            var array: [JSONValue] = []
            array.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                array.append(try converting(value, at: "\(path)[\(index)]"))
            }
            return .array(array)
        }
        if let members = object as? [String: Any] {
            var dictionary: [String: JSONValue] = [:]
            dictionary.reserveCapacity(members.count)
            for (key, value) in members { dictionary[key] = try converting(value, at: "\(path).\(key)") }
            return .object(dictionary)
        }
        if let members = object as? [AnyHashable: Any], let key = members.keys.first(where: { !($0.base is String) }) {
            throw .notJSON(path: path, found: "a dictionary key of type \(type(of: key.base))")
        }
        throw .notJSON(path: path, found: "a value of type \(objectType)")
    }

    /// Converts an `NSNumber` by the kind of number it holds.
    private static func converting(_ number: NSNumber, at path: String) throws(JSONConversionError) -> JSONValue {
        if let decimal = number as? NSDecimalNumber { return try converting(decimal.decimalValue, at: path) }
        // A boolean NSNumber is an instance of a private subclass, on Linux as on Apple platforms.
        if type(of: number) == type(of: NSNumber(value: true)) { return .bool(number.boolValue) }
        switch String(cString: number.objCType) {
        case "c", "s", "i", "l", "q", "C", "S", "I": return .int(number.intValue)
        case "L", "Q":
            if let exact = Int(exactly: number.uint64Value) { return .int(exact) }
            return .double(number.doubleValue)
        case "f": return try finite(number.floatValue, at: path)
        default: return try finite(number.doubleValue, at: path)
        }
    }

    /// An integral decimal that fits `Int` as ``int(_:)``, any other as ``double(_:)``.
    private static func converting(_ decimal: Decimal, at path: String) throws(JSONConversionError) -> JSONValue {
        let number = NSDecimalNumber(decimal: decimal)
        if let integer = Int(exactly: number.int64Value), Decimal(integer) == decimal { return .int(integer) }
        return try finite(number.doubleValue, at: path)
    }

    private static func finite(_ value: Double, at path: String) throws(JSONConversionError) -> JSONValue {
        guard value.isFinite else { throw .notJSON(path: path, found: "the number \(value)") }
        return .double(value)
    }

    /// A `Float` by its shortest decimal form, so `Float(1.1)` is `1.1` and not `1.100000023841858`.
    private static func finite(_ value: Float, at path: String) throws(JSONConversionError) -> JSONValue {
        try finite(Double("\(value)") ?? Double(value), at: path)
    }
}

/// An `Optional` seen through `Any`, whatever it wraps.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 as Any } }
}

extension JSONConversionError {
    /// The error for a value that `JSONEncoder` could not encode.
    init(encoding error: any Error) {
        if case EncodingError.invalidValue(_, let context) = error {
            self = .encodingFailed(path: Self.path(context.codingPath), reason: context.debugDescription)
        } else {
            self = .encodingFailed(path: "$", reason: "\(error)")
        }
    }

    /// The error for JSON that `JSONDecoder` could not decode.
    init(decoding error: any Error) {
        guard let error = error as? DecodingError else {
            self = .decodingFailed(path: "$", reason: "\(error)")
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .decodingFailed(path: Self.path(context.codingPath + [key]), reason: "the key is missing.")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            self = .decodingFailed(path: Self.path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self = .decodingFailed(path: "$", reason: "\(error)")
        }
    }

    /// `$`, then `.key` or `[index]` for each step of a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "$") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += ".\(key.stringValue)" }
        }
    }
}
