import EndpointKitOpenAPIReader

/// Turns schemas into Swift types, declaring the structs and enums they need.
struct SchemaTranslator {
    /// The state of a component schema.
    enum ComponentState {
        /// Being translated (a reference to it now is recursion).
        case inProgress
        /// Translated: how it is used.
        case done(TypeUsage)
        /// Not generated.
        case failed
    }

    /// The document's references.
    let references: References
    /// Component schemas that are not generated.
    let skipped: Set<String>
    /// The Swift name of every component schema, given before anything is translated.
    var componentNames: [String: String] = [:]
    /// The component schemas translated or being translated.
    var componentStates: [String: ComponentState] = [:]
    /// The declarations, in the order they were made.
    var declarations: [Declaration] = []
    /// Inline schemas already declared, by where they are.
    var declaredAt: [JSONPointer: TypeUsage] = [:]
    /// Inline schemas being translated through a reference (to stop a loop).
    var inProgress: Set<JSONPointer> = []
    /// The type names handed out.
    var typeNames: NameScope
    /// What went wrong.
    var diagnostics: [Diagnostic] = []
    /// The prefix of every type name.
    let prefix: String

    /// A translator for a document whose type names start with `prefix`; `taken` are already used.
    init(references: References, skipped: Set<String>, prefix: String, taken: NameScope) {
        self.references = references
        self.skipped = skipped
        self.prefix = prefix
        typeNames = taken
    }

    /// A type name for `base` (already UpperCamelCase), prefixed, unique; reserved names get `Model`.
    mutating func claimTypeName(_ base: String) -> String {
        var name = prefix + base
        if Naming.reservedTypes.contains(name) || typeNames.taken.contains(name) { name += "Model" }
        return typeNames.claim(name)
    }

    /// A derived type name (its parts already prefixed), unique; reserved names get `Model`.
    mutating func claimDerived(_ name: String) -> String {
        typeNames.claim(Naming.reservedTypes.contains(name) ? name + "Model" : name)
    }

    /// Names every component schema, in document order.
    mutating func nameComponents(_ schemas: [(name: String, node: Node)]) {
        for schema in schemas where componentNames[schema.name] == nil {
            componentNames[schema.name] = claimTypeName(Naming.typeName(schema.name))
        }
    }

    /// How component schema `name` is used, translating it first; throws when it is not generated.
    mutating func component(_ name: String, from pointer: JSONPointer) throws(Unsupported) -> TypeUsage {
        if skipped.contains(name) { return .any }
        guard let swiftName = componentNames[name],
            let node = references.node(at: JSONPointer(["components", "schemas", name]))
        else { throw Unsupported(pointer, "the schema \(name) does not exist") }
        switch componentStates[name] {
        case .inProgress: return TypeUsage(.named(swiftName))
        case .done(let usage): return usage
        case .failed: throw Unsupported(pointer, "it uses the schema \(name), which is skipped")
        case nil: break
        }
        componentStates[name] = .inProgress
        let schemaPointer = JSONPointer(["components", "schemas", name])
        do {
            if node["$ref"] != nil { _ = try references.resolve(node, at: schemaPointer) }
            var usage = try self.usage(of: node, at: schemaPointer, name: swiftName, claimed: true)
            if usage.type != .named(swiftName) {
                declarations.append(
                    .alias(name: swiftName, documentation: Self.documentation(of: node), type: usage.type))
                usage = TypeUsage(.named(swiftName), nullable: usage.nullable)
            }
            componentStates[name] = .done(usage)
            return usage
        } catch {
            componentStates[name] = .failed
            diagnostics.append(Diagnostic(.error, at: error.pointer, error.message + "; the schema \(name) is skipped"))
            throw Unsupported(pointer, "it uses the schema \(name), which is skipped")
        }
    }

    /// How the schema `node` at `pointer` is used. A struct or enum it needs is declared as
    /// `name` (claimed first unless `claimed`).
    mutating func usage(
        of node: Node, at pointer: JSONPointer, name: String, claimed: Bool = false
    ) throws(Unsupported) -> TypeUsage {
        let nullable = node.flag("nullable") || Self.types(of: node).contains("null")
        if let reference = node["$ref"]?.string {
            let target = try references.target(of: reference, at: pointer.appending("$ref"))
            var usage: TypeUsage
            if let component = References.componentSchemaName(target) {
                usage = try self.component(component, from: pointer)
            } else {
                usage = try referenced(target, from: pointer, name: name)
            }
            usage.nullable = usage.nullable || nullable
            return usage
        }
        if let usage = declaredAt[pointer] { return usage }
        var usage = try unreferenced(node, at: pointer, name: name, claimed: claimed)
        usage.nullable = usage.nullable || nullable
        return usage
    }

    /// How a schema elsewhere in the document than `components.schemas` is used.
    private mutating func referenced(
        _ target: JSONPointer, from pointer: JSONPointer, name: String
    ) throws(Unsupported) -> TypeUsage {
        guard let node = references.node(at: target) else {
            throw Unsupported(pointer, "the reference \(target) points at nothing in the document")
        }
        if let usage = declaredAt[target] { return usage }
        guard inProgress.insert(target).inserted else {
            throw Unsupported(pointer, "the reference \(target) refers back to itself")
        }
        defer { inProgress.remove(target) }
        let derived = Naming.typeName(target.tokens.last == "schema" ? name : target.tokens.last ?? name)
        let usage = try self.usage(of: node, at: target, name: derived == name ? name : prefix + derived)
        declaredAt[target] = usage
        return usage
    }

    /// The `type` of a schema: one name or a 3.1 list.
    static func types(of node: Node) -> [String] {
        if let type = node["type"]?.string { return [type] }
        return (node["type"]?.elements ?? []).compactMap(\.string)
    }

    /// Whether a schema is `{type: 'null'}` (or an enum of only null).
    static func isNull(_ node: Node) -> Bool {
        if types(of: node) == ["null"] { return true }
        if let values = node["enum"]?.elements, !values.isEmpty { return values.allSatisfy { $0 == .null } }
        return false
    }

    /// The schema's title, description and deprecation as documentation.
    static func documentation(of node: Node) -> String? {
        var parts = [node.text("title"), node.text("description")].compactMap { $0 }
        if parts.count == 2, parts[0] == parts[1] { parts.removeLast() }
        if node.flag("deprecated") { parts.append("- Warning: Deprecated.") }
        return parts.isEmpty ? nil : parts.joined(separator: "\n\n")
    }

    /// How a schema without `$ref` is used.
    private mutating func unreferenced(
        _ node: Node, at pointer: JSONPointer, name: String, claimed: Bool
    ) throws(Unsupported) -> TypeUsage {
        guard node.members != nil else {
            if case .bool(false) = node { throw Unsupported(pointer, "the schema false allows no value") }
            return .any
        }
        let hasProperties = !(node["properties"]?.members ?? []).isEmpty
        for key in ["oneOf", "anyOf"] where !hasProperties {
            if let members = node[key]?.elements {
                return try union(members, key: key, node: node, at: pointer, name: name, claimed: claimed)
            }
        }
        if let members = node["allOf"]?.elements {
            let meaningful = members.enumerated().filter { !Self.isAnnotation($0.element) }
            if meaningful.count == 1, !hasProperties, let only = meaningful.first {
                return try usage(
                    of: only.element, at: pointer.appending("allOf", String(only.offset)), name: name,
                    claimed: claimed)
            }
            return try structure(node, at: pointer, name: name, claimed: claimed)
        }
        if let values = node["enum"]?.elements, let usage = try enumeration(values, node, pointer, name, claimed) {
            return usage
        }
        let types = Self.types(of: node).filter { $0 != "null" }
        let type = types.count == 1 ? types[0] : types.isEmpty ? Self.inferredType(node) : nil
        switch type {
        case "string":
            let format = node["format"]?.string
            if node["contentEncoding"]?.string == "base64" { return TypeUsage(.named("Data")) }
            return TypeUsage(.named(Self.stringFormats[format ?? ""] ?? "String"))
        case "integer":
            return TypeUsage(.named(["int32": "Int32", "int64": "Int64"][node["format"]?.string ?? ""] ?? "Int"))
        case "number": return TypeUsage(.named("Double"))
        case "boolean": return TypeUsage(.named("Bool"))
        case "array":
            guard let items = node["items"] else { return TypeUsage(.array(.named("JSONValue"))) }
            let element = try usage(of: items, at: pointer.appending("items"), name: name + "Item")
            return TypeUsage(.array(element.nullable ? element.type.optional : element.type))
        case "object":
            if hasProperties { return try structure(node, at: pointer, name: name, claimed: claimed) }
            guard let additional = node["additionalProperties"], additional.members?.isEmpty == false else {
                return .any
            }
            let value = try usage(
                of: additional, at: pointer.appending("additionalProperties"), name: name + "Value")
            return TypeUsage(.dictionary(value.nullable ? value.type.optional : value.type))
        default: return .any
        }
    }

    /// Formats of strings read as another type; others (`date`, `uri`, `email`…) are `String`.
    static let stringFormats = ["date-time": "Date", "uuid": "UUID", "binary": "Data", "byte": "Data"]

    /// The type a schema without `type` has: `object` with properties, `array` with items.
    static func inferredType(_ node: Node) -> String? {
        if node["properties"] != nil || node["additionalProperties"] != nil { return "object" }
        if node["items"] != nil { return "array" }
        if let constant = node["const"] {
            switch constant {
            case .string: return "string"
            case .bool: return "boolean"
            case .number(let literal): return Int(literal) != nil ? "integer" : "number"
            default: return nil
            }
        }
        return nil
    }

    /// Whether an `allOf` member only annotates (description, nullable…) and adds no structure.
    static func isAnnotation(_ node: Node) -> Bool {
        guard let members = node.members else { return false }
        let structural: Set<String> = [
            "$ref", "type", "properties", "additionalProperties", "items", "allOf", "oneOf", "anyOf", "enum", "const",
            "required",
        ]
        return !members.contains { structural.contains($0.key) }
    }
}
