import EndpointKitOpenAPIReader

extension SchemaTranslator {
    /// A struct for an object schema, `allOf` members merged into it; `JSONValue` when it has no properties.
    mutating func structure(
        _ node: Node, at pointer: JSONPointer, name: String, claimed: Bool
    ) throws(Unsupported) -> TypeUsage {
        var members: [(key: String, node: Node, pointer: JSONPointer)] = []
        var required: Set<String> = []
        var seen: Set<JSONPointer> = [pointer]
        try collect(node, at: pointer, into: &members, required: &required, seen: &seen)
        guard !members.isEmpty else { return .any }
        let swiftName = claimed ? name : claimDerived(name)
        declaredAt[pointer] = TypeUsage(.named(swiftName))
        var scope = NameScope(reserving: Naming.unusableMembers)
        var properties: [Property] = []
        for member in members {
            let usage = try self.usage(
                of: member.node, at: member.pointer, name: swiftName + Naming.typeName(member.key))
            properties.append(
                Property(
                    name: scope.claimMember(member.key), key: member.key, type: usage.type,
                    optional: !required.contains(member.key) || usage.nullable,
                    documentation: Self.documentation(of: member.node)))
        }
        declarations.append(
            .structure(name: swiftName, documentation: Self.documentation(of: node), properties: properties))
        return TypeUsage(.named(swiftName))
    }

    /// Gathers the properties of an object schema and of its `allOf` members, references
    /// followed; a later property of the same name replaces an earlier one in its place.
    private mutating func collect(
        _ node: Node, at pointer: JSONPointer, into members: inout [(key: String, node: Node, pointer: JSONPointer)],
        required: inout Set<String>, seen: inout Set<JSONPointer>
    ) throws(Unsupported) {
        if let reference = node["$ref"]?.string {
            let target = try references.target(of: reference, at: pointer.appending("$ref"))
            if let component = References.componentSchemaName(target), skipped.contains(component) { return }
            guard seen.insert(target).inserted else {
                throw Unsupported(pointer, "allOf includes \(reference) in itself")
            }
            guard let resolved = references.node(at: target) else {
                throw Unsupported(pointer, "the reference \(reference) points at nothing in the document")
            }
            if let component = References.componentSchemaName(target) {
                _ = try self.component(component, from: pointer)
            }
            try collect(resolved, at: target, into: &members, required: &required, seen: &seen)
            return
        }
        let types = Self.types(of: node).filter { $0 != "null" }
        guard types.isEmpty || types == ["object"] else {
            throw Unsupported(
                pointer, "allOf combines an object with a schema of type \(types.joined(separator: ", "))")
        }
        for (index, member) in (node["allOf"]?.elements ?? []).enumerated() {
            try collect(
                member, at: pointer.appending("allOf", String(index)), into: &members, required: &required, seen: &seen)
        }
        if node["properties"] == nil, node["oneOf"] != nil || node["anyOf"] != nil {
            diagnostics.append(
                Diagnostic(.warning, at: pointer, "oneOf or anyOf inside allOf is left out of the struct"))
        }
        for member in node["properties"]?.members ?? [] {
            let entry = (key: member.key, node: member.value, pointer: pointer.appending("properties", member.key))
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                members[index] = entry
            } else {
                members.append(entry)
            }
        }
        for key in node["required"]?.elements ?? [] { if let key = key.string { required.insert(key) } }
    }

    /// A `oneOf`/`anyOf`: `null` alternatives make it optional, one alternative left is that
    /// alternative's type, more are an enum with a case each.
    mutating func union(
        _ members: [Node], key: String, node: Node, at pointer: JSONPointer, name: String, claimed: Bool
    ) throws(Unsupported) -> TypeUsage {
        var nullable = false
        var alternatives: [(node: Node, pointer: JSONPointer)] = []
        for (index, member) in members.enumerated() {
            let memberPointer = pointer.appending(key, String(index))
            let resolved = (try? references.resolve(member, at: memberPointer))?.node ?? member
            if Self.isNull(resolved) { nullable = true } else { alternatives.append((member, memberPointer)) }
        }
        guard alternatives.count > 1 else {
            guard let only = alternatives.first else { return TypeUsage(.named("JSONValue"), nullable: true) }
            var usage = try self.usage(of: only.node, at: only.pointer, name: name, claimed: claimed)
            usage.nullable = usage.nullable || nullable
            return usage
        }
        let swiftName = claimed ? name : claimDerived(name)
        declaredAt[pointer] = TypeUsage(.named(swiftName), nullable: nullable)
        let discriminator = node["discriminator"]?.text("propertyName")
        let mapping = node["discriminator"]?["mapping"]?.members ?? []
        var scope = NameScope(reserving: Naming.unusableMembers)
        var cases: [UnionCase] = []
        var used: Set<String> = []
        for (index, alternative) in alternatives.enumerated() {
            let usage = try self.usage(
                of: alternative.node, at: alternative.pointer, name: swiftName + "Option" + String(index + 1))
            nullable = nullable || usage.nullable
            var values: [String] = []
            if discriminator != nil, let reference = alternative.node["$ref"]?.string,
                let target = JSONPointer(reference: reference)
            {
                let component = References.componentSchemaName(target)
                values = mapping.filter { entry in
                    guard let value = entry.value.string else { return false }
                    return value == reference || JSONPointer(reference: value) == target || value == component
                }
                .map(\.key)
                if values.isEmpty, let component { values = [component] }
            }
            if let discriminator, mapping.isEmpty {
                // Without a mapping the name is the value, but documents (OpenAI's) mostly give
                // each alternative a one-value enum or const for it: accept those too.
                values += constants(of: discriminator, in: alternative.node).filter { !values.contains($0) }
            }
            values = values.filter { used.insert($0).inserted }
            cases.append(UnionCase(name: scope.claim(caseName(usage.type)), type: usage.type, values: values))
        }
        declarations.append(
            .union(
                name: swiftName, documentation: Self.documentation(of: node), cases: cases,
                discriminator: discriminator))
        return TypeUsage(.named(swiftName), nullable: nullable)
    }

    /// The values a property of an object schema (through its references and `allOf`) is
    /// fixed to by a `const` or an `enum`; none when it is not.
    private func constants(of property: String, in node: Node, depth: Int = 0) -> [String] {
        guard depth < 8, let resolved = try? references.resolve(node, at: JSONPointer()).node else { return [] }
        if let schema = resolved["properties"]?[property],
            let fixed = try? references.resolve(schema, at: JSONPointer()).node
        {
            if let constant = fixed["const"]?.string { return [constant] }
            if let values = fixed["enum"]?.elements { return values.compactMap(\.string) }
        }
        return (resolved["allOf"]?.elements ?? []).flatMap { constants(of: property, in: $0, depth: depth + 1) }
    }

    /// A case name for an alternative of type `type`: `pet` for `Pet`, `stringArray` for `[String]`.
    private func caseName(_ type: SwiftType) -> String {
        switch type {
        case .named(let name):
            let base =
                !prefix.isEmpty && name.hasPrefix(prefix) && name != prefix
                ? String(name.dropFirst(prefix.count)) : name
            let member = Naming.memberName(base)
            return Naming.unusableMembers.contains(member) ? member + "Value" : member
        case .array(let element): return caseName(element) + "Array"
        case .dictionary(let value): return caseName(value) + "Map"
        case .optional(let wrapped): return caseName(wrapped)
        }
    }

    /// An enum for `enum` values that are all strings (or all written under `type: string`) or
    /// all integers; `nil` for other values, which are read as their type.
    mutating func enumeration(
        _ values: [Node], _ node: Node, _ pointer: JSONPointer, _ name: String, _ claimed: Bool
    ) throws(Unsupported) -> TypeUsage? {
        let present = values.filter { $0 != .null }
        let nullable = present.count < values.count
        let types = Self.types(of: node).filter { $0 != "null" }
        guard !present.isEmpty else { return TypeUsage(.named("JSONValue"), nullable: true) }
        var cases: [(name: String, value: String)] = []
        var seen: Set<String> = []
        var scope = NameScope(reserving: Naming.unusableMembers)
        let integers = present.compactMap { value -> Int? in
            if case .number(let literal) = value { return Int(literal) }
            return nil
        }
        let integer: Bool
        if types == ["string"] || (types.isEmpty && present.allSatisfy { $0.string != nil }) {
            integer = false
            for value in present.compactMap(\.scalarText) where seen.insert(value).inserted {
                cases.append((scope.claimMember(value), value))
            }
        } else if (types == ["integer"] || types.isEmpty), integers.count == present.count {
            integer = true
            for value in integers where seen.insert(String(value)).inserted {
                cases.append((scope.claim(value < 0 ? "valueMinus\(-value)" : "value\(value)"), String(value)))
            }
        } else {
            return nil
        }
        let swiftName = claimed ? name : claimDerived(name)
        let usage = TypeUsage(.named(swiftName), nullable: nullable)
        declaredAt[pointer] = usage
        declarations.append(
            .enumeration(name: swiftName, documentation: Self.documentation(of: node), cases: cases, integer: integer))
        return usage
    }
}
