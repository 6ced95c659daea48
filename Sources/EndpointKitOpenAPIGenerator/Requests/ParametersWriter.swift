/// Writes a request's `parameters` (query and body) and `headers`.
struct ParametersWriter {
    /// The access modifier with its space.
    let access: String
    /// How values become text.
    let catalog: TypeCatalog

    /// Writes `parameters` and `headers` when the request has any.
    func write(_ plan: RequestPlan, into code: inout CodeWriter) {
        // Statements, not one dictionary literal: the type checker gives up on long literals of
        // optional chains.
        var query: [String] = []
        for (name, value) in Self.fixedQuery(plan.operation.path) {
            query.append("query.append(\(Naming.literal(name)), \(Naming.literal(value)))")
        }
        for member in plan.members {
            guard case .query(let name, let explode, _) = member.role else { continue }
            let value = queryValue(member, explode: explode)
            let statement = "query.append(\(Naming.literal(name)), \(value))"
            if member.optional {
                query += ["if let value = \(Naming.escaped(member.name)) {", "    " + statement, "}"]
            } else {
                query.append(statement)
            }
        }
        let body = plan.members.first { $0.role == .body }
        if !query.isEmpty || plan.bodyKind != .none {
            code.line()
            code.line("/// The query and body.")
            code.block("\(access)var parameters: RequestParameters") { code in
                bodyParameters(plan, body: body, query: query, into: &code)
            }
        }
        let headers = plan.members.filter {
            if case .header = $0.role { return true }
            if case .cookie = $0.role { return true }
            return false
        }
        if !headers.isEmpty {
            code.line()
            code.line("/// The header parameters (and cookies); a `nil` one is left out.")
            code.block("\(access)var headers: HTTPHeaders") { code in
                self.headers(headers, into: &code)
            }
        }
    }

    /// The name/value pairs after a `?` in a path template (`/sessions?beta=true`), sent always.
    static func fixedQuery(_ path: String) -> [(String, String)] {
        guard let mark = path.firstIndex(of: "?") else { return [] }
        return path[path.index(after: mark)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// The body of `parameters`.
    private func bodyParameters(
        _ plan: RequestPlan, body: RequestPlan.Member?, query: [String], into code: inout CodeWriter
    ) {
        var expression: String
        let name = body.map { Naming.escaped($0.name) } ?? ""
        var statements: [String] = []
        switch plan.bodyKind {
        case .none: expression = ".query(query)"
        case .json: expression = Self.call(".json($0)", name, optional: body?.optional == true)
        case .form: expression = Self.call(".form(encoding: $0)", name, optional: body?.optional == true)
        case .text(let type):
            expression = Self.call(
                ".text($0, contentType: \(Naming.literal(type)))", name, optional: body?.optional == true)
        case .data(let type):
            expression = Self.call(
                ".data($0, contentType: \(Naming.literal(type)))", name, optional: body?.optional == true)
        case .multipart:
            var form = CodeWriter()
            form.line("var form = MultipartFormData()")
            for member in plan.members { if case .part(let key) = member.role { part(member, key, into: &form) } }
            statements = form.lines
            expression = ".multipart(form)"
        }
        if !query.isEmpty {
            statements += ["var query: QueryItems = []"] + query
            if plan.bodyKind != .none { expression += ".appendingQuery(query)" }
        }
        guard !statements.isEmpty else {
            code.line(expression)
            return
        }
        for statement in statements { code.line(statement) }
        code.line("return " + expression)
    }

    /// `call` (a factory with `$0` for the body) applied to the body, or to the optional body
    /// with `.none` for `nil`.
    private static func call(_ call: String, _ name: String, optional: Bool) -> String {
        optional
            ? "(\(name).map { RequestParameters\(call) } ?? RequestParameters.none)"
            : call.replacingOccurrences(of: "$0", with: name)
    }

    /// The `QueryValue` of a query parameter; `.none` when it is `nil`.
    private func queryValue(_ member: RequestPlan.Member, explode: Bool) -> String {
        let name = Naming.escaped(member.name)
        let value = member.optional ? "value" : name
        let text: String
        switch member.type {
        case .array(let element) where catalog.isScalar(element):
            text =
                explode
                ? "QueryValue.array(\(value).map { \(catalog.text(element, "$0")) })"
                : "QueryValue.string(\(value).map { \(catalog.text(element, "$0")) }.joined(separator: \",\"))"
        case .dictionary(let element) where catalog.isScalar(element):
            text =
                "QueryValue.dictionary(sortedByKey: \(value).mapValues { QueryValue.string(\(catalog.text(element, "$0"))) })"
        default:
            text = "QueryValue.string(\(catalog.text(member.type, value)))"
        }
        return text
    }

    /// One part of a multipart body.
    private func part(_ member: RequestPlan.Member, _ key: String, into code: inout CodeWriter) {
        let name = Naming.escaped(member.name)
        let value = member.optional ? "value" : name
        let field = Naming.literal(key)
        var lines: [String]
        switch member.type {
        case .named(let type) where type == multipartFile:
            lines = [
                "form.append(\(value).data, name: \(field), fileName: \(value).fileName, mimeType: \(value).contentType)"
            ]
        case .array(.named(let type)) where type == multipartFile:
            lines = [
                "for file in \(value) {",
                "    form.append(file.data, name: \(field), fileName: file.fileName, mimeType: file.contentType)", "}",
            ]
        case .array(let element) where catalog.isScalar(element):
            lines = [
                "for item in \(value) {", "    form.append(\(catalog.text(element, "item")), name: \(field))", "}",
            ]
        case let type where catalog.isScalar(type):
            lines = ["form.append(\(catalog.text(type, value)), name: \(field))"]
        default:
            lines = [
                "form.append(\(catalog.coders).jsonData(\(value)), name: \(field), mimeType: \"application/json\")"
            ]
        }
        guard member.optional else {
            for line in lines { code.line(line) }
            return
        }
        code.block("if let value = \(name)") { code in for line in lines { code.line(line) } }
    }

    /// The name of the multipart file type (the coders' name with `Coders` replaced).
    private var multipartFile: String { String(catalog.coders.dropLast("Coders".count)) + "MultipartFile" }

    /// The statements of `headers`.
    private func headers(_ members: [RequestPlan.Member], into code: inout CodeWriter) {
        code.line("var headers = HTTPHeaders.empty")
        var cookies = false
        for member in members {
            let name = Naming.escaped(member.name)
            let value = member.optional ? "value" : name
            let statement: String
            switch member.role {
            case .header(let header):
                statement = "headers[\(Naming.literal(header))] = \(catalog.text(member.type, value))"
            case .cookie(let cookie):
                if !cookies {
                    code.line("var cookies: [String] = []")
                    cookies = true
                }
                let prefix = Naming.literal(cookie + "=")
                statement = "cookies.append(\(prefix) + \(catalog.text(member.type, value)))"
            default: continue
            }
            if member.optional {
                code.block("if let value = \(name)") { code in code.line(statement) }
            } else {
                code.line(statement)
            }
        }
        if cookies {
            code.block("if !cookies.isEmpty") { code in
                code.line("headers[\"Cookie\"] = cookies.joined(separator: \"; \")")
            }
        }
        code.line("return headers")
    }
}
