import Foundation

/// Percent-encoding rules for paths, query strings and form bodies (RFC 3986).
enum PercentEncoding {
    /// What may stay as it is, per byte: a bit for each context (RFC 3986).
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        let unreserved =
            Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array("-._~".utf8)
        for byte in unreserved { table[Int(byte)] |= query | segment | path }
        // A path segment also allows `pchar` minus `%`; trusted path text also keeps `/`.
        for byte in "!$&'()*+,;=:@".utf8 { table[Int(byte)] |= segment | path }
        table[Int(UInt8(ascii: "/"))] |= path
        return table
    }()
    private static let query: UInt8 = 1
    private static let segment: UInt8 = 2
    private static let path: UInt8 = 4

    private static let hex = Array("0123456789ABCDEF".utf8)

    private static func encode(_ string: String, keeping context: UInt8, keepEscapes: Bool) -> String {
        // Most paths and values need no escaping at all: return them as they are (checked on the
        // contiguous bytes, without the UTF-8 view's index checks).
        let table = self.table
        var string = string
        if string.withUTF8({ bytes in bytes.allSatisfy { table[Int($0)] & context != 0 } }) { return string }
        let bytes = Array(string.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if table[Int(byte)] & context != 0 {
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
        encode(string, keeping: path, keepEscapes: true)
    }

    /// Encodes a value as exactly one path segment; `.` and `..` are escaped so they cannot be
    /// resolved as relative references.
    static func encodePathSegment(_ string: String) -> String {
        if string == "." { return "%2E" }
        if string == ".." { return "%2E%2E" }
        return encode(string, keeping: segment, keepEscapes: false)
    }

    /// Encodes a query or form name or value: everything but unreserved characters.
    static func encodeQueryComponent(_ string: String) -> String {
        encode(string, keeping: query, keepEscapes: false)
    }
}
