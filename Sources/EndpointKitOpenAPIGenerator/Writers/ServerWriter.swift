/// Writes `servers` as URLs.
struct ServerWriter {
    /// The access modifier with its space.
    let access: String

    /// `enum <Prefix>Servers` with a `URL?` per server, a function per server with variables.
    func write(_ servers: [Server], name: String, into code: inout CodeWriter) {
        code.line("/// The servers the API description lists.")
        code.block("nonisolated \(access)enum \(name)") { code in
            var scope = NameScope(reserving: Naming.unusableMembers)
            for (index, server) in servers.enumerated() {
                if index > 0 { code.line() }
                let base = server.description.map(Naming.memberName) ?? "server\(index + 1)"
                let name = Naming.escaped(scope.claim(base.count > 40 ? "server\(index + 1)" : base))
                code.documentation(
                    [server.description, "`\(RequestWriter.plain(server.url))`"].compactMap { $0 }.joined(
                        separator: "\n\n"))
                guard !server.variables.isEmpty else {
                    code.line("\(access)static let \(name): URL? = URL(string: \(Naming.literal(server.url)))")
                    continue
                }
                var arguments = NameScope()
                let parameters = server.variables.map { variable in
                    (variable.name, Naming.escaped(arguments.claimMember(variable.name)), variable.defaultValue)
                }
                let list = parameters.map { "\($0.1): String = \(Naming.literal($0.2))" }.joined(separator: ", ")
                code.block("\(access)static func \(name)(\(list)) -> URL?") { code in
                    var template = String(Naming.literal(server.url).dropFirst().dropLast())
                    for parameter in parameters {
                        let placeholder = String(Naming.literal("{" + parameter.0 + "}").dropFirst().dropLast())
                        template = template.replacingOccurrences(of: placeholder, with: "\\(" + parameter.1 + ")")
                    }
                    code.line("URL(string: \"\(template)\")")
                }
            }
        }
    }
}
