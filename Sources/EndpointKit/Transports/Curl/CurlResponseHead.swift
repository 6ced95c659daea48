#if os(Linux) && canImport(CCurlShim)
/// The header fields of the response being received, parsed from the lines libcurl hands to its
/// header callback.
///
/// A new status line (an informational 1xx before the final response) starts over, so only the
/// final response's fields remain.
struct CurlResponseHead {
    /// The field lines of the last head, parsed when read.
    private(set) var lines = HeaderLines()
    /// The status code of the last status line, 0 before one arrived.
    private(set) var statusCode = 0
    /// Whether the blank line ending the last head arrived.
    private(set) var isComplete = false
    /// Whether a field line of the last head has a space or tab in its name (`X A: 1`,
    /// `X-A : 1`), which is not HTTP (RFC 9112 §5.1) and which FoundationNetworking refuses.
    private(set) var hasMalformedField = false

    /// Takes one header line (with its CRLF).
    /// - Returns: Whether the line was the blank line that ends the head.
    mutating func consume(_ line: UnsafeRawBufferPointer) -> Bool {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            isComplete = true
            return true
        }
        if end >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/")
        {
            lines.removeAll()
            isComplete = false
            hasMalformedField = false
            statusCode = Self.status(in: line, end: end)
            return false
        }
        if !hasMalformedField, Self.nameHasWhitespace(line, end: end) { hasMalformedField = true }
        lines.append(UnsafeRawBufferPointer(rebasing: line[0..<end]))
        return false
    }

    /// Whether the name of a field line (up to its colon) holds a space or tab after its first
    /// byte; a line that starts with one is libcurl's to refuse (folding).
    private static func nameHasWhitespace(_ line: UnsafeRawBufferPointer, end: Int) -> Bool {
        var index = 1
        while index < end {
            let byte = line[index]
            if byte == UInt8(ascii: ":") { return false }
            if byte == 0x20 || byte == 0x09 { return true }
            index += 1
        }
        return false
    }

    /// The fields in arrival order.
    var fields: [(name: String, value: String)] { lines.fields }

    /// The fields as a dictionary, repeated names joined with ", " (RFC 9110 §5.3).
    var dictionary: [String: String] { ResponseHead.dictionary(joining: lines.fields) }

    /// The value of the field named `name` (case-insensitive), repeated fields joined with ", ".
    func value(for name: String) -> String? { lines.value(for: name) }

    /// The three digits after the first space of a status line (`HTTP/1.1 200 OK`, `HTTP/2 200`).
    private static func status(in line: UnsafeRawBufferPointer, end: Int) -> Int {
        guard let space = line[0..<end].firstIndex(of: 0x20), space + 4 <= end else { return 0 }
        var code = 0
        for byte in line[(space + 1)..<(space + 4)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return 0 }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return code
    }
}
#endif
