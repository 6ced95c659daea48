import Foundation

/// Percent-encoding rules for paths, query strings and form bodies (RFC 3986).
enum PercentEncoding {
    /// RFC 3986 unreserved characters: never encoded.
    private static let unreserved: Set<UInt8> = Set(
        Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + [
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            ]
    )

    /// Characters allowed in a path segment besides unreserved (`pchar` minus `%`).
    private static let segmentExtras: Set<UInt8> = Set("!$&'()*+,;=:@".utf8)

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func encode(_ string: String, keeping allowed: (UInt8) -> Bool, keepEscapes: Bool) -> String {
        let bytes = Array(string.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if allowed(byte) {
                out.append(byte)
            } else if keepEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                isHex(bytes[index + 1]), isHex(bytes[index + 2])
            {
                out.append(contentsOf: bytes[index...index + 2])
                index += 2
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Encodes trusted path text: `/` and valid `%XX` escapes are kept.
    static func encodePathLiteral(_ string: String) -> String {
        encode(
            string, keeping: { unreserved.contains($0) || segmentExtras.contains($0) || $0 == UInt8(ascii: "/") },
            keepEscapes: true)
    }

    /// Encodes a value as exactly one path segment; `.` and `..` are escaped so they cannot be
    /// resolved as relative references.
    static func encodePathSegment(_ string: String) -> String {
        if string == "." { return "%2E" }
        if string == ".." { return "%2E%2E" }
        return encode(string, keeping: { unreserved.contains($0) || segmentExtras.contains($0) }, keepEscapes: false)
    }

    /// Encodes a query or form name or value: everything but unreserved characters.
    static func encodeQueryComponent(_ string: String) -> String {
        encode(string, keeping: { unreserved.contains($0) }, keepEscapes: false)
    }
}
