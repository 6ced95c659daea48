/// Byte-level facts about a document's text that both readers need: where an offset is (line and
/// column, for errors), whether the bytes are UTF-8, and how to spell a scalar in UTF-8.
enum SourceText {
    /// The UTF-8 byte order mark that a document may begin with.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The offset after a leading byte order mark (0 without one).
    static func contentStart(of bytes: [UInt8]) -> Int {
        bytes.starts(with: byteOrderMark) ? 3 : 0
    }

    /// The 1-based line and column of `offset`. A line ends at LF, CR LF or a lone CR; a column
    /// counts Unicode scalars (UTF-8 continuation bytes do not start one).
    static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A || (byte == 0x0D && (index >= bytes.count || bytes[index] != 0x0A)) {
                line += 1
                lineStart = index
            }
        }
        var column = 1
        var position = lineStart
        while position < end {
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        if lineStart < end, lineStart == 0, bytes.starts(with: byteOrderMark), end >= 3 { column -= 1 }
        return (line, column)
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or `nil` when every
    /// byte is (overlong forms, surrogates and scalars past U+10FFFF are not well-formed).
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard index + 1 < count, (low...high).contains(bytes[index + 1]) else { return index }
            for next in 2..<length {
                guard index + next < count, bytes[index + next] & 0xC0 == 0x80 else { return index }
            }
            index += length
        }
        return nil
    }

    /// Appends the UTF-8 form of `scalar` (a valid Unicode scalar value) to `buffer`.
    static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | (scalar >> 6)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | (scalar >> 12)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | ((scalar >> 18) & 0x07)))
            buffer.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// A byte as an error message shows it: `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(_ byte: UInt8) -> String {
        if (0x21..<0x7F).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
}
