import FuzzOpenAPIReader

/// The OpenAPI generator's document readers: `YAMLReader`, `JSONReader` and `DocumentReader`
/// on the raw input.
///
/// Properties: no input crashes, traps or hangs; an error points into the document (line and
/// column from 1, the line at most the document's line count); `DocumentReader` agrees with the
/// reader it picks; a node JSONReader reads, written as JSON, reads back as the same node with
/// both readers (YAML is a superset of JSON); and so does a node YAMLReader reads, written in
/// YAML's JSON-like flow style.
enum DocumentTarget {
    /// Reads the input with the three readers and checks the properties.
    static func run(_ input: inout FuzzInput) {
        let bytes = input.rest()
        let json = result { () throws(ReadError) in try JSONReader.read(bytes) }
        let yaml = result { () throws(ReadError) in try YAMLReader.read(bytes) }
        let document = result { () throws(ReadError) in try DocumentReader.read(bytes) }

        for case .failure(let error) in [json, yaml, document] {
            let lines = bytes.reduce(1) { $0 + ($1 == 0x0A || $1 == 0x0D ? 1 : 0) }
            expect(error.line >= 1 && error.column >= 1 && error.line <= lines, "error outside the document: \(error)")
        }
        expect(document == (looksLikeJSON(bytes) ? json : yaml), "DocumentReader picked another reader's result")

        if case .success(let node) = json {
            let text = JSONText.write(node)
            let again = result { () throws(ReadError) in try JSONReader.read(Array(text.utf8)) }
            expect(again == .success(node), "JSON written from \(node) reads as \(again): \(text)")
            let asYAML = result { () throws(ReadError) in try YAMLReader.read(Array(text.utf8)) }
            expect(asYAML == .success(node), "JSON \(text) reads as \(asYAML) in YAML, \(node) in JSON")
        }
        if case .success(let node) = yaml {
            let text = JSONText.write(node)
            let again = result { () throws(ReadError) in try YAMLReader.read(Array(text.utf8)) }
            expect(again == .success(node), "YAML node \(node) written as \(text) reads as \(again)")
        }
    }

    /// Whether DocumentReader reads `bytes` as JSON: `{` or `[` first after whitespace.
    private static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The result of `read`, comparable.
    private static func result(_ read: () throws(ReadError) -> Node) -> Result<Node, ReadError> {
        do {
            return .success(try read())
        } catch {
            return .failure(error)
        }
    }
}

/// Writes a node as JSON; a number is written as its literal, so a YAML number such as `0x1F` or
/// `.inf` gives a text that only YAML reads (as the same number).
enum JSONText {
    /// `node` as JSON text.
    static func write(_ node: Node) -> String {
        var text = ""
        write(node, to: &text)
        return text
    }

    /// Appends `node` to `text`.
    private static func write(_ node: Node, to text: inout String) {
        switch node {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let value): writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { text += "," }
                write(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { text += "," }
                writeString(member.key, to: &text)
                text += ":"
                write(member.value, to: &text)
            }
            text += "}"
        }
    }

    /// A JSON string; control characters and DEL escaped (YAML allows neither raw).
    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
