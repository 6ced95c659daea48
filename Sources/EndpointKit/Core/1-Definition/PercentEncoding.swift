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
        let table = self.table
        return encode(string, keepEscapes: keepEscapes, spaceAsPlus: false) { table[Int($0)] & context != 0 }
    }

    /// Escapes every byte `keeps` refuses as `%XX` (a space as `+` when `spaceAsPlus`), keeping
    /// valid `%XX` escapes when `keepEscapes`.
    @inline(__always)
    private static func encode(
        _ string: String, keepEscapes: Bool, spaceAsPlus: Bool, keeps: (UInt8) -> Bool
    ) -> String {
        // Most paths and values need no escaping at all: return them as they are (checked on the
        // contiguous bytes, without the UTF-8 view's index checks).
        var string = string
        if string.withUTF8({ bytes in bytes.allSatisfy(keeps) }) { return string }
        let bytes = Array(string.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if keeps(byte) {
                out.append(byte)
            } else if keepEscapes, byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                isHex(bytes[index + 1]), isHex(bytes[index + 2])
            {
                out.append(contentsOf: bytes[index...index + 2])
                index += 2
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
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

    /// Encodes a query or form name or value as `spelling` says; `nil` is the rule above.
    static func encodeQueryComponent(_ string: String, spelling: QuerySpelling?) -> String {
        guard let spelling else { return encode(string, keeping: query, keepEscapes: false) }
        return encode(string, keepEscapes: false, spaceAsPlus: spelling.spaceAsPlus, keeps: spelling.keeps)
    }
}

/// A percent-encoding of query and form components other than the standard one (only unreserved
/// characters kept, a space as `%20`): what a ``FormEncoder``'s `allowedCharacters` and
/// `spaceEncoding` ask for. Carried by the items it encoded (``QueryItems/Item``), so the rest of
/// the query keeps the standard rule.
struct QuerySpelling: Sendable, Hashable {
    /// The ASCII bytes kept as they are: bit `n` of `low` for byte `n` below 64, of `high` for
    /// byte `64 + n`.
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0
    /// Whether a space is written `+` (and so a `+` always `%2B`).
    let spaceAsPlus: Bool

    /// What may stay as it is in a query whatever is asked: the unreserved characters and the
    /// sub-delimiters, `:`, `@`, `/` and `?` (RFC 3986's `query`), but not `&`, `=` and `+`,
    /// which a server reads as separators or a space.
    private static let permitted = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/?".utf8)

    /// The standard rule: unreserved characters kept, a space as `%20`.
    static let standard = QuerySpelling(
        allowed: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"),
        spaceAsPlus: false)

    /// The bytes of `allowed` that a query may hold as they are.
    init(allowed: CharacterSet, spaceAsPlus: Bool) {
        self.spaceAsPlus = spaceAsPlus
        for byte in Self.permitted where allowed.contains(Unicode.Scalar(byte)) {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// Whether `byte` is written as it is.
    func keeps(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }
}
