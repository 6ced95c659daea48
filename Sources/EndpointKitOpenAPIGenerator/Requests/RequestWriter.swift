/// Writes the request type of an operation.
struct RequestWriter {
    /// The access modifier with its space.
    let access: String
    /// How values become text.
    let catalog: TypeCatalog

    /// Writes the request.
    func write(_ plan: RequestPlan, into code: inout CodeWriter) {
        code.documentation(documentation(of: plan))
        let conformance = plan.streaming ? "StreamingRequest" : "APIRequest"
        code.block("nonisolated \(access)struct \(plan.name): \(conformance)") { code in
            if !plan.streaming {
                code.line("/// The decoded response body.")
                code.line("\(access)typealias Response = \(plan.response.code)")
                code.line()
            }
            for member in plan.members {
                code.documentation(member.documentation ?? Self.defaultDocumentation(member.role))
                code.line("\(access)var \(Naming.escaped(member.name)): \(member.declaredType.code)")
            }
            if !plan.members.isEmpty { code.line() }
            initializer(plan, into: &code)
            code.line()
            code.line("/// `\(plan.operation.method)`.")
            code.line("\(access)var method: HTTPMethod { \(Self.method(plan.operation.method)) }")
            code.line()
            code.line("/// `\(CodeWriter.documentationLines(plan.operation.path).joined())`.")
            code.line("\(access)var path: RequestPath { \(path(plan)) }")
            ParametersWriter(access: access, catalog: catalog).write(plan, into: &code)
            code.line()
            code.line("/// Reads dates in ISO 8601 with or without fractional seconds.")
            code.line("\(access)var decoder: JSONDecoder? { \(catalog.coders).decoder }")
            code.line()
            code.line("/// Writes dates in ISO 8601.")
            code.line("\(access)var encoder: JSONEncoder? { \(catalog.coders).encoder }")
            if plan.streaming {
                code.line()
                code.line("/// The body is a stream of Server-Sent Events.")
                code.line("\(access)var format: StreamFormat<ServerSentEvent> { .serverSentEvents }")
                // A GET event stream reconnects when it drops, as Server-Sent Events do; a stream
                // that answers a POST (a completion, a chat reply) ends with its reply: reconnecting
                // would send the request again.
                if plan.operation.method.uppercased() != "GET" {
                    code.line()
                    code.line("/// Never reconnects: the stream answers this request and ends with it.")
                    code.line("\(access)var reconnection: StreamReconnection { .never }")
                }
            }
        }
    }

    /// The request's documentation: summary, description, method and path, deprecation, security.
    private func documentation(of plan: RequestPlan) -> String {
        let operation = plan.operation
        var parts = [operation.summary, operation.description].compactMap { $0 }
        if parts.count == 2, parts[0] == parts[1] { parts.removeLast() }
        let path = CodeWriter.documentationLines(operation.path).joined()
        parts.append("`\(operation.method) \(path)`" + (operation.operationID.map { " (`\(Self.plain($0))`)" } ?? ""))
        if operation.deprecated { parts.append("- Warning: Deprecated.") }
        let schemes = operation.security.filter { !$0.isEmpty }.map { $0.joined(separator: " and ") }
        if !schemes.isEmpty { parts.append("Security: " + schemes.joined(separator: " or ") + ".") }
        return parts.joined(separator: "\n\n")
    }

    /// Text on one line without backticks, for inside a code span.
    static func plain(_ text: String) -> String {
        CodeWriter.documentationLines(text).joined(separator: " ").replacingOccurrences(of: "`", with: "'")
    }

    /// The documentation of a member the document does not describe.
    static func defaultDocumentation(_ role: RequestPlan.Role) -> String {
        switch role {
        case .path(let name): "The path parameter `\(plain(name))`."
        case .query(let name, _, _): "The query parameter `\(plain(name))`."
        case .header(let name): "The header `\(plain(name))`."
        case .cookie(let name): "The cookie `\(plain(name))`."
        case .body: "The request body."
        case .part(let name): "The part `\(plain(name))`."
        }
    }

    /// `.get`, `.post`…, or a literal for another method.
    static func method(_ method: String) -> String {
        ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"].contains(method)
            ? "." + method.lowercased() : Naming.literal(method)
    }

    /// The initializer: every member, or the body's properties in place of the body.
    private func initializer(_ plan: RequestPlan, into code: inout CodeWriter) {
        var parameters: [String] = []
        for member in plan.members where !(plan.flattened != nil && member.role == .body) {
            parameters.append(
                "\(Naming.escaped(member.name)): \(member.declaredType.code)\(member.optional ? " = nil" : "")")
        }
        for property in plan.flattened?.properties ?? [] {
            parameters.append(
                "\(Naming.escaped(property.name)): \(property.declaredType.code)\(property.optional ? " = nil" : "")")
        }
        code.line(
            plan.flattened == nil
                ? "/// Creates the request."
                : "/// Creates the request; the body's properties are given directly.")
        code.block("\(access)init(\(parameters.joined(separator: ", ")))") { code in
            for member in plan.members {
                let name = Naming.escaped(member.name)
                if let flattened = plan.flattened, member.role == .body {
                    let arguments = flattened.properties.map {
                        "\(Naming.label($0.name)): \(Naming.escaped($0.name))"
                    }
                    code.line("self.\(name) = \(flattened.type)(\(arguments.joined(separator: ", ")))")
                } else {
                    code.line("self.\(name) = \(name)")
                }
            }
        }
    }

    /// The path as a `RequestPath` literal, each parameter one interpolated segment.
    private func path(_ plan: RequestPlan) -> String {
        var literal = ""
        var variable: String?
        for character in plan.operation.path.prefix(while: { $0 != "?" }) {
            if character == "{" {
                variable = ""
            } else if character == "}", let name = variable {
                variable = nil
                guard let member = plan.members.first(where: { $0.role == .path(name) }) else { continue }
                let escaped = Naming.escaped(member.name)
                let text =
                    member.optional
                    ? "\(escaped).map { \(catalog.text(member.type, "$0")) } ?? \"\""
                    : catalog.text(member.type, escaped)
                literal += "\\(" + text + ")"
            } else if variable != nil {
                variable?.append(character)
            } else {
                literal += String(Naming.literal(String(character)).dropFirst().dropLast())
            }
        }
        return "\"" + literal + "\""
    }
}
