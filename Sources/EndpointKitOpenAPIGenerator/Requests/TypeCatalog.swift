/// The generated declarations by name, to know how a value of a named type is written as text.
struct TypeCatalog {
    /// The declarations by name.
    let declarations: [String: Declaration]
    /// The name of the shared coders type.
    let coders: String

    /// How a value of `type` is written as text.
    func kind(of type: SwiftType) -> ScalarKind {
        guard case .named(let name) = type else { return .other }
        switch name {
        case "String": return .string
        case "Int", "Int32", "Int64", "Double", "Bool": return .describable
        case "UUID": return .uuid
        case "Date": return .date
        case "Data": return .data
        case "JSONValue": return .json
        default: break
        }
        switch declarations[name] {
        case .enumeration(_, _, _, let integer)?: return integer ? .integerEnum : .stringEnum
        case .alias(_, _, let target)?: return kind(of: target)
        default: return .other
        }
    }

    /// Whether `type` is written as one text value (not a list, map or object).
    func isScalar(_ type: SwiftType) -> Bool { kind(of: type) != .other && kind(of: type) != .json }

    /// An expression for the text of `expression`, a value of `type`.
    func text(_ type: SwiftType, _ expression: String) -> String {
        switch kind(of: type) {
        case .string: expression
        case .describable: "String(\(expression))"
        case .uuid: "\(expression).uuidString"
        case .date: "\(coders).string(from: \(expression))"
        case .data: "\(expression).base64EncodedString()"
        case .stringEnum: "\(expression).rawValue"
        case .integerEnum: "String(\(expression).rawValue)"
        case .json: "\(expression).description"
        case .other: "\(coders).jsonText(\(expression))"
        }
    }
}
