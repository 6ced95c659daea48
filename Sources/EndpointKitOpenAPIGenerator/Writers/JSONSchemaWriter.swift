import EndpointKitOpenAPIReader

/// Writes a schema of the document as a `JSONSchema` expression (EndpointKitStubs): component
/// schemas as `.reference("Name")`, others written out; formats are not checked.
///
/// An object's properties are not a nested dictionary literal (type-checking those took minutes
/// for OpenAI's schemas) but a local variable filled by statements, which ``takeStatements()``
/// hands out to be written before the expression.
final class JSONSchemaWriter {
    /// The document's references.
    let references: References
    /// The statements the expressions written since the last ``takeStatements()`` need.
    private var statements: [String] = []
    /// How many property variables were declared.
    private var variables = 0

    /// A writer for the document of `references`.
    init(references: References) { self.references = references }

    /// The statements the expressions written so far need, in order; then none.
    func takeStatements() -> [String] {
        defer { statements = [] }
        return statements
    }

    /// The expression for the schema `node` at `pointer`; `visiting` are the inline references
    /// being written (one met again is `.any`, which stops a loop).
    func expression(_ node: Node, at pointer: JSONPointer, visiting: Set<JSONPointer> = []) -> String {
        if SchemaTranslator.isNull(node) { return ".null" }
        let base = shape(node, at: pointer, visiting: visiting)
        let nullable =
            node.flag("nullable") || SchemaTranslator.types(of: node).contains("null")
            || node["enum"]?.elements?.contains(.null) == true
        return nullable && base != ".any" && base != ".null" ? ".anyOf([\(base), .null])" : base
    }

    /// The expression without `null`.
    private func shape(_ node: Node, at pointer: JSONPointer, visiting: Set<JSONPointer>) -> String {
        if case .bool(let allowed) = node { return allowed ? ".any" : ".anyOf([])" }
        guard node.members != nil else { return ".any" }
        if let reference = node["$ref"]?.string {
            guard let target = JSONPointer(reference: reference), let resolved = references.node(at: target) else {
                return ".any"
            }
            if let name = References.componentSchemaName(target) { return ".reference(\(Naming.literal(name)))" }
            guard !visiting.contains(target) else { return ".any" }
            return expression(resolved, at: target, visiting: visiting.union([target]))
        }
        let hasProperties = !(node["properties"]?.members ?? []).isEmpty
        for key in ["oneOf", "anyOf"] where !hasProperties {
            guard let members = node[key]?.elements else { continue }
            let choices = members.enumerated().map { index, member in
                expression(member, at: pointer.appending(key, String(index)), visiting: visiting)
            }
            return choices.contains(".any") ? ".any" : ".anyOf([\(choices.joined(separator: ", "))])"
        }
        if node["allOf"] != nil { return allOf(node, at: pointer, visiting: visiting) }
        if let values = node["enum"]?.elements { return enumeration(values) }
        if let constant = node["const"] { return enumeration([constant]) }
        let types = SchemaTranslator.types(of: node).filter { $0 != "null" }
        if types.count > 1 {
            return ".anyOf([\(types.map { typed($0, node, at: pointer, visiting: visiting) }.joined(separator: ", "))])"
        }
        guard let type = types.first ?? SchemaTranslator.inferredType(node) else { return ".any" }
        return typed(type, node, at: pointer, visiting: visiting)
    }

    /// The expression of a schema of one `type`.
    private func typed(_ type: String, _ node: Node, at pointer: JSONPointer, visiting: Set<JSONPointer>) -> String {
        switch type {
        case "string": return ".string()"
        case "integer": return ".integer"
        case "number": return ".number"
        case "boolean": return ".boolean"
        case "array":
            guard let items = node["items"] else { return ".array(.any)" }
            return ".array(\(expression(items, at: pointer.appending("items"), visiting: visiting)))"
        case "object":
            var members: [(key: String, node: Node, pointer: JSONPointer)] = []
            for member in node["properties"]?.members ?? [] {
                members.append((member.key, member.value, pointer.appending("properties", member.key)))
            }
            let required = (node["required"]?.elements ?? []).compactMap(\.string)
            return object(members, required: required, additional: node["additionalProperties"], at: pointer, visiting)
        default: return ".any"
        }
    }

    /// `.object(…)` with the defaults left out; later members of the same key win.
    private func object(
        _ members: [(key: String, node: Node, pointer: JSONPointer)], required: [String], additional: Node?,
        at pointer: JSONPointer, _ visiting: Set<JSONPointer>
    ) -> String {
        var keys: [String] = []
        var values: [String: String] = [:]
        for member in members {
            if values[member.key] == nil { keys.append(member.key) }
            values[member.key] = expression(member.node, at: member.pointer, visiting: visiting)
        }
        var arguments: [String] = []
        if !keys.isEmpty {
            variables += 1
            let variable = "properties\(variables)"
            statements.append("var \(variable): [String: JSONSchema] = [:]")
            for key in keys { statements.append("\(variable)[\(Naming.literal(key))] = \(values[key] ?? ".any")") }
            arguments.append(variable)
        }
        var seen: Set<String> = []
        let names = required.filter { seen.insert($0).inserted }
        if !names.isEmpty { arguments.append("required: [\(names.map(Naming.literal).joined(separator: ", "))]") }
        switch additional {
        case .bool(false)?: arguments.append("additionalProperties: nil")
        case let schema? where schema.members?.isEmpty == false:
            let value = expression(schema, at: pointer.appending("additionalProperties"), visiting: visiting)
            if value != ".any" { arguments.append("additionalProperties: \(value)") }
        default: break
        }
        return ".object(\(arguments.joined(separator: ", ")))"
    }

    /// An `allOf`: the one member that says something, or the members' properties merged into
    /// an object that allows other members.
    private func allOf(_ node: Node, at pointer: JSONPointer, visiting: Set<JSONPointer>) -> String {
        let hasProperties = !(node["properties"]?.members ?? []).isEmpty
        let meaningful = (node["allOf"]?.elements ?? []).enumerated().filter {
            !SchemaTranslator.isAnnotation($0.element)
        }
        if meaningful.count == 1, !hasProperties, let only = meaningful.first {
            return expression(only.element, at: pointer.appending("allOf", String(only.offset)), visiting: visiting)
        }
        var members: [(key: String, node: Node, pointer: JSONPointer)] = []
        var required: [String] = []
        var seen: Set<JSONPointer> = [pointer]
        guard collect(node, at: pointer, into: &members, required: &required, seen: &seen) else { return ".any" }
        return object(members, required: required, additional: nil, at: pointer, visiting)
    }

    /// Gathers the properties of an object and its `allOf` members; `false` when a member is
    /// not an object (the merge is then not checked).
    private func collect(
        _ node: Node, at pointer: JSONPointer, into members: inout [(key: String, node: Node, pointer: JSONPointer)],
        required: inout [String], seen: inout Set<JSONPointer>
    ) -> Bool {
        if let reference = node["$ref"]?.string {
            guard let target = JSONPointer(reference: reference), let resolved = references.node(at: target) else {
                return false
            }
            guard seen.insert(target).inserted else { return true }
            return collect(resolved, at: target, into: &members, required: &required, seen: &seen)
        }
        let types = SchemaTranslator.types(of: node).filter { $0 != "null" }
        guard types.isEmpty || types == ["object"], node["oneOf"] == nil, node["anyOf"] == nil else { return false }
        for (index, member) in (node["allOf"]?.elements ?? []).enumerated() {
            let memberPointer = pointer.appending("allOf", String(index))
            guard collect(member, at: memberPointer, into: &members, required: &required, seen: &seen) else {
                return false
            }
        }
        for member in node["properties"]?.members ?? [] {
            members.append((member.key, member.value, pointer.appending("properties", member.key)))
        }
        required += (node["required"]?.elements ?? []).compactMap(\.string)
        return true
    }

    /// An `enum` (or `const`): strings as `.string(values:)`, numbers and booleans as their type.
    private func enumeration(_ values: [Node]) -> String {
        let present = values.filter { $0 != .null }
        guard !present.isEmpty else { return ".null" }
        let strings = present.compactMap(\.string)
        if strings.count == present.count {
            var seen: Set<String> = []
            let unique = strings.filter { seen.insert($0).inserted }
            return ".string(values: [\(unique.map(Naming.literal).joined(separator: ", "))])"
        }
        let numbers = present.compactMap { value -> String? in
            if case .number(let literal) = value { return literal }
            return nil
        }
        if numbers.count == present.count { return numbers.allSatisfy { Int($0) != nil } ? ".integer" : ".number" }
        if present.allSatisfy({ if case .bool = $0 { return true } else { return false } }) { return ".boolean" }
        return ".any"
    }

    /// The component schemas the schemas at `roots` use, directly or through others, in
    /// document order.
    func components(usedBy roots: [Node], in document: Document) -> [(name: String, node: Node)] {
        var used: Set<String> = []
        var visited: Set<JSONPointer> = []
        var work = roots
        while let node = work.popLast() {
            switch node {
            case .object(let members):
                for member in members {
                    guard member.key == "$ref" else {
                        work.append(member.value)
                        continue
                    }
                    guard let reference = member.value.string, let target = JSONPointer(reference: reference),
                        visited.insert(target).inserted, let resolved = references.node(at: target)
                    else { continue }
                    if let name = References.componentSchemaName(target) { used.insert(name) }
                    work.append(resolved)
                }
            case .array(let elements): work += elements
            default: break
            }
        }
        return document.schemas.filter { used.contains($0.name) }
    }
}
