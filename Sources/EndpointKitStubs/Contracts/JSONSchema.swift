import EndpointKit

/// The shape a JSON value must have, as an API description (an OpenAPI document) states it: what
/// an ``OperationContract`` checks a body or a parameter against.
///
/// `endpointkit-openapi` writes these; by hand, a small one reads:
///
/// ```swift
/// let user: JSONSchema = .object(["id": .integer, "name": .string()], required: ["id", "name"])
/// ```
public indirect enum JSONSchema: Sendable, Hashable {
    /// Any value.
    case any
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number without a fraction.
    case integer
    /// Any number.
    case number
    /// A string; with `values`, one of them (an `enum`).
    case string(values: [String]? = nil)
    /// An array whose elements all have this shape.
    case array(JSONSchema)
    /// An object: the named members have their shapes, the `required` ones are present, and any
    /// other member has the shape of `additionalProperties` (`nil`: no other member is allowed).
    case object([String: JSONSchema] = [:], required: [String] = [], additionalProperties: JSONSchema? = .any)
    /// A value of at least one of these shapes (`oneOf` and `anyOf` alike; with ``null`` among them, a
    /// nullable value).
    case anyOf([JSONSchema])
    /// The schema of this name in the contract's `schemas` (a `$ref`, which lets a schema refer to
    /// itself).
    case reference(String)
}

/// Checks JSON values against a schema and says where they differ, as JSON pointers.
struct SchemaValidator {
    /// The named schemas a ``JSONSchema/reference(_:)`` resolves to.
    let schemas: [String: JSONSchema]
    /// How deep a reference chain may go before the check gives up on a value.
    private let maximumDepth = 64

    /// The places where `value` does not have the shape `schema` says, each `pointer: problem`.
    func problems(_ value: JSONValue, _ schema: JSONSchema, at pointer: String = "") -> [String] {
        problems(value, schema, pointer, depth: 0)
    }

    private func problems(_ value: JSONValue, _ schema: JSONSchema, _ pointer: String, depth: Int) -> [String] {
        let place = pointer.isEmpty ? "/" : pointer
        guard depth < maximumDepth else { return [] }
        switch (schema, value) {
        case (.any, _), (.null, .null), (.boolean, .bool), (.integer, .int), (.number, .int), (.number, .double):
            return []
        case (.integer, .double(let number)) where number.rounded() == number:
            return []
        case (.string(let values), .string(let text)):
            guard let values, !values.contains(text) else { return [] }
            let allowed = values.map { "\"\($0)\"" }.joined(separator: ", ")
            return ["\(place): \"\(text)\" is not one of \(allowed)"]
        case (.array(let element), .array(let elements)):
            return elements.enumerated().flatMap { index, item in
                problems(item, element, pointer + "/\(index)", depth: depth + 1)
            }
        case (.object(let properties, let required, let additional), .object(let members)):
            var found = required.filter { members[$0] == nil }.sorted().map {
                "\(place): the required member \"\($0)\" is missing"
            }
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let path = pointer + "/" + Self.escape(name)
                if let property = properties[name] {
                    found += problems(member, property, path, depth: depth + 1)
                } else if let additional {
                    found += problems(member, additional, path, depth: depth + 1)
                } else {
                    found.append("\(path): the member \"\(name)\" is not in the description")
                }
            }
            return found
        case (.anyOf(let choices), _):
            if choices.contains(where: { problems(value, $0, pointer, depth: depth + 1).isEmpty }) { return [] }
            return ["\(place): \(Self.describe(value)) matches none of the \(choices.count) allowed shapes"]
        case (.reference(let name), _):
            guard let resolved = schemas[name] else {
                return ["\(place): the schema \"\(name)\" is not in the contract"]
            }
            return problems(value, resolved, pointer, depth: depth + 1)
        default:
            return ["\(place): expected \(Self.describe(schema)), got \(Self.describe(value))"]
        }
    }

    /// RFC 6901: `~` as `~0`, `/` as `~1`.
    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private static func describe(_ schema: JSONSchema) -> String {
        switch schema {
        case .any: return "any value"
        case .null: return "null"
        case .boolean: return "a boolean"
        case .integer: return "an integer"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .anyOf: return "one of several shapes"
        case .reference(let name): return name
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .int(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return "\"\(text.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
