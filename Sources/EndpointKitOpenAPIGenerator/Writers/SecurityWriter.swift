/// Writes a request interceptor for each security scheme.
struct SecurityWriter {
    /// The access modifier with its space.
    let access: String

    /// An interceptor that sends the scheme's credential with every request.
    func write(_ scheme: SecurityScheme, name: String, into code: inout CodeWriter) {
        var documentation = "Sends the `\(RequestWriter.plain(scheme.name))` credential with every request."
        if let description = scheme.description { documentation += "\n\n" + description }
        code.documentation(documentation)
        code.block("nonisolated \(access)struct \(name): RequestInterceptor") { code in
            let provided: String
            switch scheme.kind {
            case .basic:
                code.line("/// Gives the user name and password, asked before each request.")
                code.line("\(access)let credentials: @Sendable () async throws -> (username: String, password: String)")
                code.line()
                code.line("/// An interceptor asking `credentials` for the user name and password.")
                code.block(
                    "\(access)init(credentials: @escaping @Sendable () async throws -> (username: String, password: String))"
                ) { $0.line("self.credentials = credentials") }
                provided = "credentials"
            default:
                code.line("/// Gives the credential, asked before each request.")
                code.line("\(access)let credential: @Sendable () async throws -> String")
                code.line()
                code.line("/// An interceptor asking `credential` for the value to send.")
                code.block("\(access)init(credential: @escaping @Sendable () async throws -> String)") {
                    $0.line("self.credential = credential")
                }
                provided = "credential"
            }
            code.line()
            code.line("/// Adds the credential to the request.")
            code.block("\(access)func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest")
            {
                code in
                code.line("var request = request")
                switch scheme.kind {
                case .basic:
                    code.line("let (username, password) = try await \(provided)()")
                    code.line(
                        "let value = HTTPHeaders.authorization(username: username, password: password)[\"Authorization\"]"
                    )
                    code.line("request.setValue(value, forHTTPHeaderField: \"Authorization\")")
                case .bearer:
                    code.line(
                        "request.setValue(\"Bearer \" + (try await \(provided)()), forHTTPHeaderField: \"Authorization\")"
                    )
                case .apiKey(let key, "header"):
                    code.line("request.setValue(try await \(provided)(), forHTTPHeaderField: \(Naming.literal(key)))")
                case .apiKey(let key, "query"):
                    code.line("let value = try await \(provided)()")
                    code.block(
                        "if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)"
                    ) {
                        code in
                        code.line(
                            "components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: \(Naming.literal(key)), value: value)]"
                        )
                        code.line("request.url = components.url ?? url")
                    }
                case .apiKey(let key, _):
                    code.line("let cookie = \(Naming.literal(key + "=")) + (try await \(provided)())")
                    code.line("let existing = request.value(forHTTPHeaderField: \"Cookie\")")
                    code.line(
                        "request.setValue(existing.map { $0 + \"; \" + cookie } ?? cookie, forHTTPHeaderField: \"Cookie\")"
                    )
                }
                code.line("return request")
            }
        }
    }
}
