import EndpointKitOpenAPIReader

/// Writes an `OperationContract` (EndpointKitStubs) per request: what the document says the
/// operation accepts, for checking the generated requests (or hand-written ones) against it.
struct ContractWriter {
    /// The access modifier with its space.
    let access: String
    /// The enum's name.
    let name: String
    /// The document.
    let document: Document

    /// How many schemas one function adds: a function per few keeps type-checking fast.
    static let schemasPerFunction = 50

    /// `enum <Prefix>Contracts` with the schemas the operations use and a contract per request.
    func write(_ plans: [RequestPlan], into code: inout CodeWriter) {
        let writer = JSONSchemaWriter(references: References(root: document.root))
        var roots: [Node] = []
        for plan in plans {
            roots += parameters(of: plan).compactMap { $0.schema?.node }
            if let content = bodyContent(of: plan), let schema = content.schema { roots.append(schema.node) }
        }
        let schemas = writer.components(usedBy: roots, in: document)
        code.line("/// What the API description says each operation accepts, to check requests against.")
        code.block("nonisolated \(access)enum \(name)") { code in
            code.line("/// The component schemas the operations use, by name.")
            code.line("\(access)static let schemas: [String: JSONSchema] = makeSchemas()")
            var scope = NameScope(reserving: ["schemas", "makeSchemas"])
            for plan in plans {
                code.line()
                contract(plan, member: scope.claim(Naming.memberName(plan.name)), writer, into: &code)
            }
            code.line()
            code.line("/// The schemas, added a few per function (a long literal is slow to type-check).")
            code.block("private static func makeSchemas() -> [String: JSONSchema]") { code in
                // A `var` never added to would be a warning in the generated code.
                guard !schemas.isEmpty else { return code.line("[:]") }
                code.line("var schemas: [String: JSONSchema] = [:]")
                for index in stride(from: 0, to: schemas.count, by: Self.schemasPerFunction) {
                    code.line("addSchemas\(index / Self.schemasPerFunction + 1)(to: &schemas)")
                }
                code.line("return schemas")
            }
            for index in stride(from: 0, to: schemas.count, by: Self.schemasPerFunction) {
                code.line()
                code.line("/// Schemas \(index + 1) to \(min(index + Self.schemasPerFunction, schemas.count)).")
                code.block(
                    "private static func addSchemas\(index / Self.schemasPerFunction + 1)"
                        + "(to schemas: inout [String: JSONSchema])"
                ) { code in
                    for schema in schemas[index..<min(index + Self.schemasPerFunction, schemas.count)] {
                        let pointer = JSONPointer(["components", "schemas", schema.name])
                        let expression = writer.expression(schema.node, at: pointer)
                        for statement in writer.takeStatements() { code.line(statement) }
                        code.line("schemas[\(Naming.literal(schema.name))] = \(expression)")
                    }
                }
            }
        }
    }

    /// The query and header parameters the request sends (path parameters are in the template;
    /// cookies and headers the generated code sets itself are left out).
    private func parameters(of plan: RequestPlan) -> [Parameter] {
        plan.operation.parameters.filter { parameter in
            parameter.location == "query"
                || (parameter.location == "header"
                    && !RequestBuilder.ignoredHeaders.contains(parameter.name.lowercased()))
        }
    }

    /// The media type the request's body is sent as, when it has one.
    private func bodyContent(of plan: RequestPlan) -> Content? {
        guard plan.bodyKind != .none, let body = plan.operation.requestBody else { return nil }
        return RequestBuilder.choose(body.contents)?.0
    }

    /// One contract: a static property named `member`.
    private func contract(
        _ plan: RequestPlan, member: String, _ writer: JSONSchemaWriter, into code: inout CodeWriter
    ) {
        let operation = plan.operation
        let path = String(operation.path.prefix { $0 != "?" })
        var arguments = ["method: \(RequestWriter.method(operation.method))", "path: \(Naming.literal(path))"]
        var query: [String] = []
        var headers: [String] = []
        for (name, value) in ParametersWriter.fixedQuery(operation.path) {
            query.append(
                "OperationContract.Parameter(\(Naming.literal(name)), required: true, "
                    + "schema: .string(values: [\(Naming.literal(value))]))")
        }
        for parameter in parameters(of: plan) {
            var text = "OperationContract.Parameter(\(Naming.literal(parameter.name))"
            if parameter.required { text += ", required: true" }
            if let schema = parameter.schema {
                let expression = writer.expression(schema.node, at: schema.pointer)
                if expression != ".any" { text += ", schema: \(expression)" }
            }
            text += ")"
            if parameter.location == "query" { query.append(text) } else { headers.append(text) }
        }
        if !query.isEmpty { arguments.append("query: [\(query.joined(separator: ", "))]") }
        if !headers.isEmpty { arguments.append("headers: [\(headers.joined(separator: ", "))]") }
        if let body = self.body(plan, writer) { arguments.append("body: \(body)") }
        arguments.append("schemas: schemas")
        let documentation = CodeWriter.documentationLines(operation.path).joined()
        code.line("/// `\(operation.method) \(documentation)`: what ``\(plan.name)`` must send.")
        let statements = writer.takeStatements()
        code.block("\(access)static var \(Naming.escaped(member)): OperationContract") { code in
            for statement in statements { code.line(statement) }
            code.line((statements.isEmpty ? "" : "return ") + "OperationContract(")
            for (index, argument) in arguments.enumerated() {
                code.line("    " + argument + (index == arguments.count - 1 ? ")" : ","))
            }
        }
    }

    /// The `OperationContract.Body` of a request, as the generated request sends it.
    private func body(_ plan: RequestPlan, _ writer: JSONSchemaWriter) -> String? {
        guard let body = plan.operation.requestBody, let content = bodyContent(of: plan) else { return nil }
        let contentType: String
        switch plan.bodyKind {
        case .none: return nil
        case .json: contentType = "application/json"
        case .form: contentType = "application/x-www-form-urlencoded"
        case .multipart: contentType = "multipart/form-data"
        case .text(let type), .data(let type): contentType = type
        }
        var text = "OperationContract.Body(contentType: \(Naming.literal(contentType))"
        if let schema = content.schema {
            let expression = writer.expression(schema.node, at: schema.pointer)
            if expression != ".any" { text += ", schema: \(expression)" }
        }
        if !body.required { text += ", required: false" }
        return text + ")"
    }
}
