/// Byte-level helpers for the ASCII parts of HTTP (token characters, case-insensitive names).
enum ASCII {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// Whether `lhs` and `rhs` are equal when ASCII letters are compared case-insensitively.
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil):
                return true
            case (let a?, let b?):
                if lowercase(a) != lowercase(b) { return false }
            default:
                return false
            }
        }
    }

    /// The lowercase form of an ASCII letter; other bytes unchanged.
    @inline(__always)
    static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Whether `byte` may appear in an HTTP token (method, header name), per RFC 9110 §5.6.2.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Splits a comma-separated header value into lowercase, trimmed, non-empty elements.
    static func lowercasedList(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { element in
            let trimmed = element.trimmed(of: " \t")
            return trimmed.isEmpty ? nil : trimmed.lowercased()
        }
    }
}

extension Substring {
    /// The substring without leading and trailing characters from `characters`.
    func trimmed(of characters: String) -> Substring {
        var result = self
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return result
    }
}
