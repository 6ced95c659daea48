import EndpointKitOpenAPIReader

/// Writes sample responses from the document's examples.
struct SampleWriter {
    /// The access modifier with its space.
    let access: String

    /// `extension Request: SampleResponseProviding` answering the example with the success status;
    /// nothing when the plan has no example.
    func write(_ plan: RequestPlan, into code: inout CodeWriter) {
        guard let response = Self.response(plan) else { return }
        code.line()
        code.line("/// The example response of the API description.")
        code.block("nonisolated extension \(plan.name): SampleResponseProviding") { code in
            code.line("/// The example, with status \(plan.status).")
            code.line("\(access)var sampleResponse: StubResponse { \(response) }")
        }
    }

    /// The `StubResponse` of a plan's example: JSON, text of its media type, or an event stream
    /// (a string example as written, another value as one `data:` line of JSON).
    static func response(_ plan: RequestPlan) -> String? {
        guard let example = plan.example else { return nil }
        switch plan.exampleType {
        case nil:
            return ".json(\(rawLiteral(json(example))), status: \(plan.status))"
        case "text/event-stream"?:
            var text = example.string ?? "data: " + json(example)
            let fields = ["data:", "event:", "id:", "retry:", ":"]
            if !text.split(separator: "\n").allSatisfy({ line in fields.contains { line.hasPrefix($0) } }) {
                text = text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: " + $0 }
                    .joined(separator: "\n")
            }
            while !text.hasSuffix("\n\n") { text += "\n" }
            return ".text(\(Naming.literal(text)), status: \(plan.status), contentType: \"text/event-stream\")"
        case let type?:
            let text = example.scalarText ?? json(example)
            return ".text(\(Naming.literal(text)), status: \(plan.status), contentType: \(Naming.literal(type)))"
        }
    }

    /// A raw string literal of `text` whose delimiter occurs nowhere in it.
    static func rawLiteral(_ text: String) -> String {
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + text + "\"" + hashes
    }

    /// Compact JSON of a value, members in document order; YAML numbers JSON cannot write
    /// (`0x1F`, `.inf`) are converted or `null`.
    static func json(_ node: Node) -> String {
        switch node {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let literal): return number(literal)
        case .string(let text): return string(text)
        case .array(let elements): return "[" + elements.map(json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { string($0.key) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// A number literal as JSON.
    private static func number(_ literal: String) -> String {
        if isJSONNumber(literal) { return literal }
        let unsigned = literal.hasPrefix("+") ? String(literal.dropFirst()) : literal
        if isJSONNumber(unsigned) { return unsigned }
        for (prefix, radix) in [("0x", 16), ("0o", 8)] where unsigned.lowercased().hasPrefix(prefix) {
            if let value = Int(unsigned.dropFirst(2), radix: radix) { return String(value) }
        }
        if let value = Double(unsigned), value.isFinite { return String(value) }
        return "null"
    }

    /// Whether text follows JSON's number grammar.
    private static func isJSONNumber(_ text: String) -> Bool {
        var characters = Array(text.utf8)[...]
        if characters.first == UInt8(ascii: "-") { characters = characters.dropFirst() }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard let first = characters.first, isDigit(first) else { return false }
        if first == 0x30, characters.count > 1, isDigit(characters[characters.startIndex + 1]) { return false }
        var seenDot = false
        var seenExponent = false
        var previous: UInt8 = 0
        for byte in characters {
            switch byte {
            case _ where isDigit(byte): break
            case UInt8(ascii: "."):
                guard !seenDot, !seenExponent, isDigit(previous) else { return false }
                seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !seenExponent, isDigit(previous) else { return false }
                seenExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E") else { return false }
            default: return false
            }
            previous = byte
        }
        return isDigit(previous)
    }

    /// A JSON string: quotes, backslashes, control characters and line separators escaped.
    private static func string(_ text: String) -> String {
        Naming.quoted(text) { value in
            let hex = String(value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
