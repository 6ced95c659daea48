import EndpointKitOpenAPIReader

extension RequestBuilder {
    /// Sets the response type: the first success (200 preferred) as JSON, a stream of events,
    /// text, bytes, or `Empty` without content.
    func addResponse(to plan: inout RequestPlan, translator: inout SchemaTranslator) throws(Unsupported) {
        let successes = plan.operation.responses.filter { $0.status.hasPrefix("2") }
        guard let success = successes.first(where: { $0.status == "200" }) ?? successes.first else { return }
        plan.status = Int(success.status) ?? 200
        let contents = success.body.contents
        let mediaTypes = contents.map { $0.mediaType.split(separator: ";").first.map(String.init) ?? $0.mediaType }
        if let index = mediaTypes.firstIndex(where: {
            $0 == "application/json" || $0.hasSuffix("+json") || $0.hasSuffix("/json")
        }) {
            let content = contents[index]
            plan.response = .named("JSONValue")
            if let schema = content.schema {
                plan.response = try translator.usage(
                    of: schema.node, at: schema.pointer, name: plan.name + "Response"
                ).type
            }
            plan.example = content.example ?? content.schema.flatMap { schemaExample($0.node, translator.references) }
        } else if let index = mediaTypes.firstIndex(of: "text/event-stream") {
            plan.streaming = true
            plan.example = contents[index].example
            plan.exampleType = "text/event-stream"
        } else if let first = mediaTypes.first {
            let text = first.hasPrefix("text/") && !first.contains("xml")
            plan.response = .named(text ? "String" : "Data")
            if text {
                plan.example = contents[0].example
                plan.exampleType = first
            }
        }
    }

    /// The `example` (or first of a 3.1 `examples` list) of a schema, through its references.
    private func schemaExample(_ node: Node, _ references: References) -> Node? {
        guard let resolved = try? references.resolve(node, at: JSONPointer()).node else { return nil }
        return resolved["example"] ?? resolved["examples"]?.elements?.first
    }
}
