import EndpointKitOpenAPIReader

/// Reads one operation, resolving the references of its parameters, body and responses.
struct OperationReader {
    /// The document's references.
    let references: References
    /// The diagnostics so far, this operation's appended.
    var diagnostics: [Diagnostic]

    /// The operation at `pointer`, or `nil` (with a diagnostic) when a part of it cannot be read.
    mutating func read(
        _ node: Node, at pointer: JSONPointer, method: String, path: String,
        shared: ([Node], JSONPointer), security: [[String]]
    ) -> Operation? {
        do {
            var parameters: [Parameter] = []
            for (index, parameter) in shared.0.enumerated() {
                parameters.append(try readParameter(parameter, at: shared.1.appending(String(index))))
            }
            for (index, parameter) in (node["parameters"]?.elements ?? []).enumerated() {
                let read = try readParameter(parameter, at: pointer.appending("parameters", String(index)))
                parameters.removeAll { $0.name == read.name && $0.location == read.location }
                parameters.append(read)
            }
            var requestBody: Body?
            if let body = node["requestBody"] {
                requestBody = try readBody(body, at: pointer.appending("requestBody"))
            }
            var responses: [(status: String, body: Body)] = []
            for response in node["responses"]?.members ?? [] {
                let body = try readBody(response.value, at: pointer.appending("responses", response.key))
                responses.append((response.key, body))
            }
            return Operation(
                pointer: pointer, method: method, path: path, operationID: node.text("operationId"),
                summary: node.text("summary"), description: node.text("description"),
                tags: (node["tags"]?.elements ?? []).compactMap(\.string), deprecated: node.flag("deprecated"),
                parameters: parameters, requestBody: requestBody, responses: responses,
                security: node["security"].map(Document.readSecurity) ?? security)
        } catch {
            diagnostics.append(Diagnostic(.error, at: error.pointer, error.message + "; the operation is skipped"))
            return nil
        }
    }

    /// A parameter, its reference resolved.
    func readParameter(_ node: Node, at pointer: JSONPointer) throws(Unsupported) -> Parameter {
        let (node, pointer) = try references.resolve(node, at: pointer)
        guard let name = node["name"]?.string, let location = node["in"]?.string else {
            throw Unsupported(pointer, "a parameter needs name and in")
        }
        var schema = node["schema"].map { ($0, pointer.appending("schema")) }
        var json = false
        if schema == nil, let content = node["content"]?.members?.first {
            schema = content.value["schema"].map { ($0, pointer.appending("content", content.key, "schema")) }
            json = content.key.lowercased().contains("json")
        }
        let style = node["style"]?.string
        var explode = style == nil || style == "form"
        if case .bool(let value)? = node["explode"] { explode = value }
        return Parameter(
            pointer: pointer, name: name, location: location, required: location == "path" || node.flag("required"),
            schema: schema, json: json, description: node.text("description"), deprecated: node.flag("deprecated"),
            explode: explode, style: style)
    }

    /// A request body or response, its reference resolved.
    func readBody(_ node: Node, at pointer: JSONPointer) throws(Unsupported) -> Body {
        let (node, pointer) = try references.resolve(node, at: pointer)
        var contents: [Content] = []
        for member in node["content"]?.members ?? [] {
            let contentPointer = pointer.appending("content", member.key)
            var example = member.value["example"]
            if example == nil, let first = member.value["examples"]?.members?.first {
                let resolved = try? references.resolve(first.value, at: contentPointer.appending("examples", first.key))
                example = resolved?.node["value"]
            }
            contents.append(
                Content(
                    mediaType: member.key.lowercased(),
                    schema: member.value["schema"].map { ($0, contentPointer.appending("schema")) }, example: example,
                    pointer: contentPointer))
        }
        return Body(
            pointer: pointer, description: node.text("description"), required: node.flag("required"),
            contents: contents)
    }
}
