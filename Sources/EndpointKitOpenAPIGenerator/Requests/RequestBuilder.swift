import EndpointKitOpenAPIReader

/// Plans the request type of one operation, translating the schemas it uses.
struct RequestBuilder {
    /// Members every request has (from `APIRequest` and `StreamingRequest`): a parameter with one
    /// of these names is suffixed `Value`.
    static let requestMembers: Set<String> = [
        "path", "method", "parameters", "headers", "baseURL", "connectTimeout", "idleTimeout", "totalTimeout",
        "envelope", "decoder", "encoder", "validation", "tag", "retrier", "interceptors", "priority", "cachePolicy",
        "coalescesIdenticalRequests", "sendInfo", "credential", "redirectHandler", "transformBody", "validate",
        "decode", "format", "bufferSize", "reconnection",
    ]

    /// Header parameters OpenAPI says to ignore: the generated code sets them itself.
    static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The name of the multipart file type.
    let multipartFile: String

    /// The type name an operation gets before clashes are resolved: its `operationId` in
    /// UpperCamelCase, or its method and path.
    static func baseName(of operation: Operation) -> String {
        Naming.typeName(operation.operationID ?? (operation.method.lowercased() + " " + operation.path))
    }

    /// The plan for `operation`, named `name`; throws when part of it cannot be generated.
    func plan(
        _ operation: Operation, name: String, translator: inout SchemaTranslator, diagnostics: inout [Diagnostic]
    ) throws(Unsupported) -> RequestPlan {
        var scope = NameScope(reserving: Naming.unusableMembers)
        var members: [RequestPlan.Member] = []
        var parameters = operation.parameters.filter {
            !($0.location == "header" && Self.ignoredHeaders.contains($0.name.lowercased()))
        }
        for variable in Self.pathVariables(operation.path)
        where !parameters.contains(where: { $0.location == "path" && $0.name == variable }) {
            diagnostics.append(
                Diagnostic(
                    .warning, at: operation.pointer, "the path parameter \(variable) is not declared; it is a String"))
            parameters.append(
                Parameter(
                    pointer: operation.pointer, name: variable, location: "path", required: true, schema: nil,
                    json: false, description: nil, deprecated: false, explode: false, style: nil))
        }
        for parameter in parameters {
            members.append(try member(for: parameter, of: name, scope: &scope, translator: &translator))
        }
        var plan = RequestPlan(
            operation: operation, name: name, response: .named("Empty"), streaming: false, members: members,
            bodyKind: .none, flattened: nil, status: 200, example: nil)
        if let body = operation.requestBody, !body.contents.isEmpty {
            try addBody(body, to: &plan, scope: &scope, translator: &translator)
        }
        try addResponse(to: &plan, translator: &translator)
        return plan
    }

    /// The names inside `{}` of a path template, in order.
    static func pathVariables(_ path: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in path {
            if character == "{" {
                current = ""
            } else if character == "}", let name = current {
                names.append(name)
                current = nil
            } else if current != nil {
                current?.append(character)
            }
        }
        return names
    }

    /// A parameter's stored property.
    private func member(
        for parameter: Parameter, of name: String, scope: inout NameScope, translator: inout SchemaTranslator
    ) throws(Unsupported) -> RequestPlan.Member {
        let role: RequestPlan.Role
        switch parameter.location {
        case "path": role = .path(parameter.name)
        case "query":
            role = .query(parameter.name, explode: parameter.explode, deepObject: parameter.style == "deepObject")
        case "header": role = .header(parameter.name)
        case "cookie": role = .cookie(parameter.name)
        default: throw Unsupported(parameter.pointer, "a parameter in \(parameter.location) is not supported")
        }
        var usage = TypeUsage(.named("String"))
        if let schema = parameter.schema {
            usage = try translator.usage(
                of: schema.node, at: schema.pointer, name: name + Naming.typeName(parameter.name))
        }
        var memberName = Naming.memberName(parameter.name)
        if Self.requestMembers.contains(memberName) || memberName == "body" { memberName += "Value" }
        var documentation = parameter.description
        if parameter.deprecated { documentation = (documentation.map { $0 + "\n\n" } ?? "") + "- Warning: Deprecated." }
        return RequestPlan.Member(
            name: scope.claimMember(memberName), type: usage.type,
            optional: !parameter.required || usage.nullable, documentation: documentation, role: role)
    }

    /// The media type a body is sent as, chosen from its contents (JSON first), and how.
    static func choose(_ contents: [Content]) -> (Content, RequestPlan.BodyKind)? {
        let ranked: [(Content, RequestPlan.BodyKind, Int)] = contents.compactMap { content in
            let type = content.mediaType.split(separator: ";").first.map(String.init) ?? content.mediaType
            if type == "application/json" { return (content, .json, 0) }
            if type.hasSuffix("+json") || type.hasSuffix("/json") { return (content, .json, 1) }
            if type == "multipart/form-data" { return (content, .multipart, 2) }
            if type == "application/x-www-form-urlencoded" { return (content, .form, 3) }
            if type.contains("xml") { return nil }
            if type.hasPrefix("text/") { return (content, .text(type), 4) }
            return (content, .data(type == "*/*" ? "application/octet-stream" : type), 5)
        }
        return ranked.min { $0.2 < $1.2 }.map { ($0.0, $0.1) }
    }

    /// Adds the body's stored properties (the body, or each part of a multipart body).
    private func addBody(
        _ body: Body, to plan: inout RequestPlan, scope: inout NameScope, translator: inout SchemaTranslator
    ) throws(Unsupported) {
        guard let (content, kind) = Self.choose(body.contents) else {
            let types = body.contents.map(\.mediaType).joined(separator: ", ")
            throw Unsupported(body.pointer, "a body of \(types) is not supported")
        }
        plan.bodyKind = kind
        let documentation = body.description ?? "The request body."
        switch kind {
        case .text:
            plan.members.append(
                .init(
                    name: scope.claim("body"), type: .named("String"), optional: !body.required,
                    documentation: documentation, role: .body))
            return
        case .data:
            plan.members.append(
                .init(
                    name: scope.claim("body"), type: .named("Data"), optional: !body.required,
                    documentation: documentation, role: .body))
            return
        default: break
        }
        var usage = TypeUsage.any
        if let schema = content.schema {
            usage = try translator.usage(of: schema.node, at: schema.pointer, name: plan.name + "Body")
        }
        let structure = Self.structure(named: usage.type, in: translator)
        if kind == .multipart {
            guard let structure else {
                throw Unsupported(content.pointer, "a multipart body needs an object schema with properties")
            }
            for property in structure.properties {
                plan.members.append(
                    .init(
                        name: scope.claim(property.name), type: partType(property.type), optional: property.optional,
                        documentation: property.documentation, role: .part(property.key)))
            }
            return
        }
        let bodyName = scope.claim("body")
        plan.members.append(
            .init(
                name: bodyName, type: usage.type, optional: !body.required && structure == nil,
                documentation: documentation, role: .body))
        if let structure, structure.properties.allSatisfy({ !scope.taken.contains($0.name) }) {
            plan.flattened = (structure.name, structure.properties)
        }
    }

    /// A multipart part's type: `Data` is a file (with a name and type).
    private func partType(_ type: SwiftType) -> SwiftType {
        switch type {
        case .named("Data"): .named(multipartFile)
        case .array(.named("Data")): .array(.named(multipartFile))
        default: type
        }
    }

    /// The struct a type names (through aliases), with its properties.
    static func structure(
        named type: SwiftType, in translator: SchemaTranslator
    ) -> (name: String, properties: [Property])? {
        guard case .named(let name) = type else { return nil }
        for declaration in translator.declarations where declaration.name == name {
            switch declaration {
            case .structure(let name, _, let properties): return (name, properties)
            case .alias(_, _, let target): return structure(named: target, in: translator)
            default: return nil
            }
        }
        return nil
    }
}
