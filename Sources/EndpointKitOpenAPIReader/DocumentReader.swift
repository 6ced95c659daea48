/// Reads an OpenAPI document in JSON or YAML into a ``Node``.
package enum DocumentReader {
    /// Reads `bytes` as JSON when its first byte other than whitespace (after a byte order mark)
    /// is `{` or `[`, as YAML otherwise. JSON is YAML too, but the JSON reader is stricter and
    /// faster, and its error is the one reported for a document that looks like JSON.
    package static func read(_ bytes: [UInt8]) throws(ReadError) -> Node {
        var offset = SourceText.contentStart(of: bytes)
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "{") || bytes[offset] == UInt8(ascii: "[") {
            return try JSONReader.read(bytes)
        }
        return try YAMLReader.read(bytes)
    }

    /// Reads the document `text`.
    package static func read(_ text: String) throws(ReadError) -> Node {
        try read(Array(text.utf8))
    }
}
