import Foundation

/// Reading a document of unknown shape, as `[String: Any]` call sites did: subscripts that
/// give `nil` for a missing key, an index out of range or the wrong kind of value, and that
/// chain without `?`.
///
/// ```swift
/// let body = try await client.value(for: Endpoint<JSONValue>(path: "/me"))
/// let name = body["user"]["name"].stringValue        // String?
/// let firstID = body["items"][0]["id"].intValue      // Int?
/// ```
extension JSONValue {
    /// The member named `key` of an object; `nil` when this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; `nil` when this is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string of a `.string`; `nil` for any other value (a number is not turned into text).
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The integer of an `.int`, or of a `.double` with no fractional part that fits an `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number of an `.int` or a `.double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The value of a `.bool`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The elements of an `.array`.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The members of an `.object`.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }
}

/// The same subscripts on an optional value, so that a path reads `body["user"]["name"]` and
/// gives `nil` as soon as one step is missing.
extension Optional where Wrapped == JSONValue {
    /// The member named `key`, or `nil` when this is `nil` or has no such member.
    public subscript(key: String) -> JSONValue? { self?[key] }

    /// The element at `index`, or `nil` when this is `nil` or has no such element.
    public subscript(index: Int) -> JSONValue? { self?[index] }

    /// See ``JSONValue/stringValue``; `nil` when this is `nil`.
    public var stringValue: String? { self?.stringValue }

    /// See ``JSONValue/intValue``; `nil` when this is `nil`.
    public var intValue: Int? { self?.intValue }

    /// See ``JSONValue/doubleValue``; `nil` when this is `nil`.
    public var doubleValue: Double? { self?.doubleValue }

    /// See ``JSONValue/boolValue``; `nil` when this is `nil`.
    public var boolValue: Bool? { self?.boolValue }

    /// See ``JSONValue/arrayValue``; `nil` when this is `nil`.
    public var arrayValue: [JSONValue]? { self?.arrayValue }

    /// See ``JSONValue/objectValue``; `nil` when this is `nil`.
    public var objectValue: [String: JSONValue]? { self?.objectValue }

    /// Whether the value is there and is JSON `null`: `false` when a step is missing, so that a
    /// member sent as `null` is told apart from one not sent.
    public var isNull: Bool { self?.isNull ?? false }
}
