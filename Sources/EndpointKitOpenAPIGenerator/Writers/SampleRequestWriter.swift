import EndpointKitOpenAPIReader

/// Writes a request value per operation with a sample response, made with placeholder
/// arguments, so that every documented operation can be sent in tests and demo builds.
struct SampleRequestWriter {
    /// The access modifier with its space.
    let access: String
    /// The enum's name.
    let name: String
    /// The generated declarations by name.
    let declarations: [String: Declaration]
    /// The name of the multipart file type.
    let multipartFile: String

    /// How deep nested struct arguments may go.
    static let maximumDepth = 12

    /// `enum <Prefix>SampleRequests` with `all`; an operation whose arguments cannot be made is
    /// named in a comment and left out.
    func write(_ plans: [RequestPlan], into code: inout CodeWriter) {
        code.line("/// A request per operation with a sample response, made with placeholder arguments.")
        code.block("nonisolated \(access)enum \(name)") { code in
            code.line("/// The requests, in document order.")
            code.block("\(access)static var all: [any SampleResponseProviding]") { code in
                let values = plans.map { (plan: $0, value: request($0)) }
                // A `var` never appended to would be a warning in the generated code.
                let appends = values.contains { $0.value != nil }
                if appends { code.line("var requests: [any SampleResponseProviding] = []") }
                for (plan, value) in values {
                    if let value {
                        code.line("requests.append(\(value))")
                    } else {
                        code.line("// \(plan.name) is left out: a required argument cannot be made (a cycle).")
                    }
                }
                code.line(appends ? "return requests" : "[]")
            }
        }
    }

    /// `Name(arguments)` for a request, its required arguments placeholders; `nil` when one
    /// cannot be made.
    func request(_ plan: RequestPlan) -> String? {
        var arguments: [String] = []
        for member in plan.members where !member.optional && !(plan.flattened != nil && member.role == .body) {
            guard let value = placeholder(member, of: plan) else { return nil }
            arguments.append("\(Naming.label(member.name)): \(value)")
        }
        for property in plan.flattened?.properties ?? [] where !property.optional {
            guard let value = value(of: property.type, depth: 0, visiting: []) else { return nil }
            arguments.append("\(Naming.label(property.name)): \(value)")
        }
        return "\(plan.name)(\(arguments.joined(separator: ", ")))"
    }

    /// A member's placeholder: a parameter's documented example when it is a string or a number.
    private func placeholder(_ member: RequestPlan.Member, of plan: RequestPlan) -> String? {
        let parameter: (name: String, location: String)?
        switch member.role {
        case .path(let name): parameter = (name, "path")
        case .query(let name, _, _): parameter = (name, "query")
        case .header(let name): parameter = (name, "header")
        case .cookie(let name): parameter = (name, "cookie")
        default: parameter = nil
        }
        if let parameter,
            let schema = plan.operation.parameters.first(where: {
                $0.name == parameter.name && $0.location == parameter.location
            })?.schema?.node,
            let example = schema["example"] ?? schema["examples"]?.elements?.first ?? schema["default"]
        {
            switch (member.type, example) {
            case (.named("String"), .string(let text)): return Naming.literal(text)
            case (.named("Int"), .number(let literal)), (.named("Int32"), .number(let literal)),
                (.named("Int64"), .number(let literal)):
                if let number = Int(literal) { return "\(number)" }
            case (.named("Double"), .number(let literal)): if let number = Double(literal) { return "\(number)" }
            case (.named("Bool"), .bool(let flag)): return flag ? "true" : "false"
            default: break
            }
        }
        return value(of: member.type, depth: 0, visiting: [])
    }

    /// A placeholder of `type`; `nil` for a struct that contains itself through required
    /// properties, or one nested too deep.
    func value(of type: SwiftType, depth: Int, visiting: Set<String>) -> String? {
        switch type {
        case .optional: return "nil"
        case .array: return "[]"
        case .dictionary: return "[:]"
        case .named(let name): return named(name, depth: depth, visiting: visiting)
        }
    }

    /// A placeholder of a named type.
    private func named(_ name: String, depth: Int, visiting: Set<String>) -> String? {
        switch name {
        case "String": return "\"string\""
        case "Int", "Int32", "Int64": return "0"
        case "Double": return "0"
        case "Bool": return "false"
        case "UUID": return "UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))"
        case "Date": return "Date(timeIntervalSince1970: 0)"
        case "Data": return "Data()"
        case "JSONValue": return "JSONValue.null"
        case multipartFile: return "\(multipartFile)(data: Data(), fileName: \"file\")"
        default: break
        }
        guard depth < Self.maximumDepth, !visiting.contains(name) else { return nil }
        let inside = visiting.union([name])
        switch declarations[name] {
        case .enumeration(_, _, let cases, let integer)?:
            guard let first = cases.first else { return integer ? "\(name).unknown(0)" : "\(name).unknown(\"\")" }
            return "\(name).\(Naming.escaped(first.name))"
        case .alias(_, _, let target)?:
            return value(of: target, depth: depth + 1, visiting: inside)
        case .union(_, _, let cases, _)?:
            for item in cases {
                if let payload = value(of: item.type, depth: depth + 1, visiting: inside) {
                    return "\(name).\(Naming.escaped(item.name))(\(payload))"
                }
            }
            return nil
        case .structure(_, _, let properties)?:
            var arguments: [String] = []
            for property in properties where !property.optional {
                guard let payload = value(of: property.type, depth: depth + 1, visiting: inside) else { return nil }
                arguments.append("\(Naming.label(property.name)): \(payload)")
            }
            return "\(name)(\(arguments.joined(separator: ", ")))"
        case nil:
            return nil
        }
    }
}
