#if canImport(CCurlShim)
/// The header fields of the response being received, parsed from the lines libcurl hands to its
/// header callback.
///
/// A new status line (an informational 1xx before the final response) starts over, so only the
/// final response's fields remain.
struct CurlResponseHead {
    /// The fields in arrival order.
    private(set) var fields: [(name: String, value: String)] = []
    /// The status code of the last status line, 0 before one arrived.
    private(set) var statusCode = 0
    /// Whether the blank line ending the last head arrived.
    private(set) var isComplete = false

    private static let colon = UInt8(ascii: ":")

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
            fields.removeAll(keepingCapacity: true)
            isComplete = false
            statusCode = Self.status(in: line, end: end)
            return false
        }
        if line[0] == 0x20 || line[0] == 0x09 {
            // An obsolete folded continuation line (RFC 9112 §5.2): part of the previous value.
            // Before the first field there is none: the line is dropped (§2.2), not read as a
            // field with an empty name.
            if let last = fields.popLast() { fields.append((last.name, last.value + " " + Self.text(line, 0..<end))) }
            return false
        }
        guard let colon = line[0..<end].firstIndex(of: Self.colon), colon > 0 else { return false }
        fields.append((Self.text(line, 0..<colon), Self.text(line, (colon + 1)..<end)))
        return false
    }

    /// The fields as a dictionary, repeated names joined with ", " (RFC 9110 §5.3).
    var dictionary: [String: String] { ResponseHead.dictionary(joining: fields) }

    /// The value of the first field named `name` (case-insensitive).
    func value(for name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

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

    /// The bytes in `range` as text, without surrounding spaces and tabs.
    private static func text(_ line: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, line[lower] == 0x20 || line[lower] == 0x09 { lower += 1 }
        while upper > lower, line[upper - 1] == 0x20 || line[upper - 1] == 0x09 { upper -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: line[lower..<upper]), as: UTF8.self)
    }
}
#endif
