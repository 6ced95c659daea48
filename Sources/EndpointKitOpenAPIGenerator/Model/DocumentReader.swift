import EndpointKitOpenAPIReader

extension Document {
    /// The HTTP methods an OpenAPI path item can hold, in their usual order.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Reads a document from its value tree. Parts that cannot be read are left out with a
    /// diagnostic; only a root that is not a mapping with `paths` or `components` is an error.
    package static func read(_ root: Node, diagnostics: inout [Diagnostic]) throws(Unsupported) -> Document {
        guard root.members != nil else { throw Unsupported(JSONPointer(), "the document is not a mapping") }
        guard root["openapi"] != nil || root["paths"] != nil || root["components"] != nil else {
            throw Unsupported(JSONPointer(), "the document has no openapi, paths or components: not OpenAPI 3")
        }
        if root["swagger"] != nil {
            throw Unsupported(JSONPointer(["swagger"]), "Swagger 2.0 is not supported: convert it to OpenAPI 3 first")
        }
        let references = References(root: root)
        let security = readSecurity(root["security"])
        var operations: [Operation] = []
        for path in root["paths"]?.members ?? [] {
            let pointer = JSONPointer(["paths", path.key])
            let item: (node: Node, pointer: JSONPointer)
            do { item = try references.resolve(path.value, at: pointer) } catch {
                diagnostics.append(Diagnostic(.error, at: error.pointer, error.message + "; the path is skipped"))
                continue
            }
            let shared = item.node["parameters"]?.elements ?? []
            for method in item.node.members ?? [] where methods.contains(method.key) {
                let operationPointer = pointer.appending(method.key)
                var reader = OperationReader(references: references, diagnostics: diagnostics)
                let operation = reader.read(
                    method.value, at: operationPointer, method: method.key.uppercased(), path: path.key,
                    shared: (shared, item.pointer.appending("parameters")), security: security)
                diagnostics = reader.diagnostics
                if let operation { operations.append(operation) }
            }
        }
        let components = root["components"]
        let schemas = (components?["schemas"]?.members ?? []).map { (name: $0.key, node: $0.value) }
        return Document(
            root: root, title: root["info"]?.text("title") ?? "API", version: root["info"]?.text("version"),
            description: root["info"]?.text("description"), servers: readServers(root["servers"]),
            operations: operations, schemas: schemas,
            securitySchemes: readSecuritySchemes(components?["securitySchemes"], references, &diagnostics),
            security: security)
    }

    /// `security` requirements: each one's scheme names (an empty requirement means none needed).
    static func readSecurity(_ node: Node?) -> [[String]] {
        (node?.elements ?? []).map { ($0.members ?? []).map(\.key) }
    }

    /// `servers`, entries without a `url` left out.
    static func readServers(_ node: Node?) -> [Server] {
        (node?.elements ?? []).compactMap { server in
            guard let url = server["url"]?.string else { return nil }
            let variables = (server["variables"]?.members ?? []).map { member in
                (
                    name: member.key, defaultValue: member.value["default"].flatMap(\.scalarText) ?? "",
                    description: member.value.text("description")
                )
            }
            return Server(url: url, description: server.text("description"), variables: variables)
        }
    }

    /// `components.securitySchemes`; a scheme the generator cannot send is a warning.
    static func readSecuritySchemes(
        _ node: Node?, _ references: References, _ diagnostics: inout [Diagnostic]
    ) -> [SecurityScheme] {
        var schemes: [SecurityScheme] = []
        for member in node?.members ?? [] {
            let pointer = JSONPointer(["components", "securitySchemes", member.key])
            guard let scheme = try? references.resolve(member.value, at: pointer).node else {
                diagnostics.append(Diagnostic(.warning, at: pointer, "the scheme cannot be resolved; no interceptor"))
                continue
            }
            let kind: SecurityScheme.Kind
            switch (scheme["type"]?.string ?? "", scheme["scheme"]?.string?.lowercased()) {
            case ("apiKey", _):
                guard let name = scheme.text("name"), let location = scheme["in"]?.string,
                    ["header", "query", "cookie"].contains(location)
                else {
                    diagnostics.append(Diagnostic(.warning, at: pointer, "an apiKey scheme needs name and in"))
                    continue
                }
                kind = .apiKey(name: name, location: location)
            case ("http", "basic"): kind = .basic
            case ("http", "bearer"), ("oauth2", _), ("openIdConnect", _): kind = .bearer
            default:
                diagnostics.append(
                    Diagnostic(.warning, at: pointer, "this kind of security scheme is not supported; no interceptor"))
                continue
            }
            schemes.append(
                SecurityScheme(name: member.key, kind: kind, description: scheme.text("description"), pointer: pointer))
        }
        return schemes
    }
}

extension Node {
    /// A scalar as text: a string, a number's literal, `true`/`false`; `nil` for others.
    var scalarText: String? {
        switch self {
        case .string(let text), .number(let text): text
        case .bool(let value): value ? "true" : "false"
        default: nil
        }
    }
}
