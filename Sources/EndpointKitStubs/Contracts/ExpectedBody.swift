import EndpointKit
import Foundation

/// The body an ``EndpointContract`` expects.
///
/// ```swift
/// body: .json(["name": "Ada", "tags": ["a", "b"]])     // compared as JSON values
/// body: .form(["user": "ada", "remember": true])         // compared as decoded fields, any order
/// body: .multipart([.field("owner", "Ada"), .file("photo", fileName: "cat.png")])
/// body: .empty
/// ```
public struct ExpectedBody: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case empty
        case json(JSONValue)
        case form(QueryItems, EndpointContract.ParameterOrder)
        case multipart([ExpectedPart], EndpointContract.ParameterOrder)
        case data(Data)
        case text(String)
        case invalid(String)
    }

    let kind: Kind

    /// No body at all (or an empty one).
    public static var empty: ExpectedBody { ExpectedBody(kind: .empty) }

    /// A JSON body equal in value to `value`, with a JSON `Content-Type`.
    public static func json(_ value: JSONValue) -> ExpectedBody { ExpectedBody(kind: .json(value)) }

    /// A JSON body equal in value to the JSON text `text`, with a JSON `Content-Type`.
    public static func json(_ text: String) -> ExpectedBody {
        do {
            return .json(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
        } catch {
            return ExpectedBody(kind: .invalid("the expected JSON text is not valid JSON: \(text)"))
        }
    }

    /// A JSON body equal in value to `value` encoded by `encoder`, with a JSON `Content-Type`.
    /// - Parameters:
    ///   - value: The expected value.
    ///   - encoder: The encoder; a plain `JSONEncoder` by default. Use the client's if it changes
    ///     key or date strategies.
    public static func json<Value: Encodable>(
        encoding value: Value, encoder: JSONEncoder = JSONEncoder()
    ) -> ExpectedBody {
        do {
            let data = try encoder.encode(value)
            return .json(try JSONDecoder().decode(JSONValue.self, from: data))
        } catch {
            return ExpectedBody(kind: .invalid("the expected \(Value.self) could not be encoded: \(error)"))
        }
    }

    /// An `application/x-www-form-urlencoded` body with exactly these fields.
    /// - Parameters:
    ///   - items: The fields, not percent-encoded.
    ///   - order: Whether field order matters; ``EndpointContract/ParameterOrder/any`` by default.
    public static func form(_ items: QueryItems, order: EndpointContract.ParameterOrder = .any) -> ExpectedBody {
        ExpectedBody(kind: .form(items, order))
    }

    /// A `multipart/form-data` body with exactly these parts, compared by name, file name,
    /// content type and content (JSON parts as values). Multipart bodies are built in memory to be
    /// checked, whatever their size.
    /// - Parameters:
    ///   - parts: The parts.
    ///   - order: Whether part order matters; ``EndpointContract/ParameterOrder/any`` by default.
    public static func multipart(
        _ parts: [ExpectedPart], order: EndpointContract.ParameterOrder = .any
    ) -> ExpectedBody {
        ExpectedBody(kind: .multipart(parts, order))
    }

    /// Exactly these bytes.
    public static func data(_ data: Data) -> ExpectedBody { ExpectedBody(kind: .data(data)) }

    /// Exactly this text, encoded as UTF-8.
    public static func text(_ text: String) -> ExpectedBody { ExpectedBody(kind: .text(text)) }

    /// The expectation in words, such as `JSON {"a":1}`.
    public var description: String {
        switch kind {
        case .empty: return "no body"
        case .json(let value): return "JSON \(value)"
        case .form(let items, _): return "form \(items.percentEncoded(arrayEncoding: .repeatedKey))"
        case .multipart(let parts, _): return "multipart " + parts.map(\.description).joined(separator: ", ")
        case .data(let data): return "\(data.count) bytes"
        case .text(let text): return "text \(text.debugDescription)"
        case .invalid(let reason): return "invalid expectation: \(reason)"
        }
    }
}
