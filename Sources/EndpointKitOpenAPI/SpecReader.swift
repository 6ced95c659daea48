import EndpointKitOpenAPIReader

/// Reads a document's bytes as JSON.
enum SpecReader {
    /// The value tree of a JSON document.
    static func read(_ bytes: [UInt8]) throws(ReadError) -> Node {
        try JSONReader.read(bytes)
    }
}
