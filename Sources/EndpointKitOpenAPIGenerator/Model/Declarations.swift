/// A Swift type as generated code spells it.
indirect enum SwiftType: Hashable, Sendable {
    /// A named type: `String`, `Pet`, `JSONValue`.
    case named(String)
    /// `[Element]`.
    case array(SwiftType)
    /// `[String: Value]`.
    case dictionary(SwiftType)
    /// `Wrapped?`.
    case optional(SwiftType)

    /// The type's spelling.
    var code: String {
        switch self {
        case .named(let name): name
        case .array(let element): "[\(element.code)]"
        case .dictionary(let value): "[String: \(value.code)]"
        case .optional(let wrapped): wrapped.code + "?"
        }
    }

    /// Every named type it mentions.
    var names: [String] {
        switch self {
        case .named(let name): [name]
        case .array(let inner), .dictionary(let inner), .optional(let inner): inner.names
        }
    }

    /// This type made optional (an optional stays as it is).
    var optional: SwiftType {
        if case .optional = self { return self }
        return .optional(self)
    }
}

/// The type a schema is used as: its Swift type and whether `null` is allowed.
struct TypeUsage: Hashable, Sendable {
    /// The type.
    var type: SwiftType
    /// Whether `null` is a valid value (the type is then used as an optional).
    var nullable: Bool

    /// A usage of `type`.
    init(_ type: SwiftType, nullable: Bool = false) {
        self.type = type
        self.nullable = nullable
    }

    /// `JSONValue`: any JSON.
    static let any = TypeUsage(.named("JSONValue"))
}

/// A stored property of a generated struct.
struct Property: Hashable, Sendable {
    /// The Swift name, unescaped.
    var name: String
    /// The JSON key.
    var key: String
    /// The type, without the optional.
    var type: SwiftType
    /// Whether the property is optional (not required, or nullable).
    var optional: Bool
    /// Its documentation.
    var documentation: String?
    /// Whether it is stored in a box because the struct contains itself through it.
    var boxed = false

    /// The declared type: `type`, or `type?` when optional.
    var declaredType: SwiftType { optional ? type.optional : type }
}

/// One case of an enum generated for `oneOf`/`anyOf`.
struct UnionCase: Hashable, Sendable {
    /// The case name, unescaped.
    var name: String
    /// The associated value's type.
    var type: SwiftType
    /// The discriminator values that select it; empty when it is tried by decoding.
    var values: [String]
}

/// A type the generator declares for a schema.
enum Declaration: Hashable, Sendable {
    /// A struct of properties.
    case structure(name: String, documentation: String?, properties: [Property])
    /// An enum of string or integer values with an `unknown` case.
    case enumeration(name: String, documentation: String?, cases: [(name: String, value: String)], integer: Bool)
    /// An enum with a case per alternative, decoded by a discriminator property or in order.
    case union(name: String, documentation: String?, cases: [UnionCase], discriminator: String?)
    /// `typealias name = type`.
    case alias(name: String, documentation: String?, type: SwiftType)

    /// The declared name.
    var name: String {
        switch self {
        case .structure(let name, _, _), .enumeration(let name, _, _, _), .union(let name, _, _, _),
            .alias(let name, _, _):
            name
        }
    }

    /// The named types its members use.
    var referencedNames: [String] {
        switch self {
        case .structure(_, _, let properties): properties.flatMap(\.type.names)
        case .enumeration: []
        case .union(_, _, let cases, _): cases.flatMap(\.type.names)
        case .alias(_, _, let type): type.names
        }
    }

    /// Whether two declarations are the same.
    static func == (lhs: Declaration, rhs: Declaration) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
