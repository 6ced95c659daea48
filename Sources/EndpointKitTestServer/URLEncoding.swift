/// Percent-decoding and `name=value&...` splitting for request targets and form bodies.
enum URLEncoding {
    /// Splits `a=1&b=2` into ordered, percent-decoded pairs.
    ///
    /// Empty pieces are skipped; a piece without `=` gets an empty value.
    /// - Parameter plusAsSpace: `true` for `application/x-www-form-urlencoded` bodies, where `+`
    ///   encodes a space; `false` for query strings, where `+` is kept as is.
    static func parsePairs(_ encoded: Substring, plusAsSpace: Bool) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for piece in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: "=") {
                let name = decode(piece[..<equals], plusAsSpace: plusAsSpace)
                let value = decode(piece[piece.index(after: equals)...], plusAsSpace: plusAsSpace)
                pairs.append((name, value))
            } else {
                pairs.append((decode(piece, plusAsSpace: plusAsSpace), ""))
            }
        }
        return pairs
    }

    /// Percent-decodes `text`. Malformed escapes are kept literally; invalid UTF-8 is replaced
    /// with U+FFFD.
    static func decode(_ text: Substring, plusAsSpace: Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") && plusAsSpace {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high != utf8.endIndex,
                let low = utf8.index(high, offsetBy: 1, limitedBy: utf8.endIndex), low != utf8.endIndex,
                let highValue = hexValue(utf8[high]), let lowValue = hexValue(utf8[low])
            {
                bytes.append(highValue << 4 | lowValue)
                index = low
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of an ASCII hex digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
