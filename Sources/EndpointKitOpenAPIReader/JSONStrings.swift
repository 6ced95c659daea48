extension JSONParser {
    /// A string at `"`: its escapes decoded (a surrogate pair as one scalar); a control character,
    /// an unknown escape or a lone surrogate is an error.
    mutating func string() throws(ReadError) -> String {
        let open = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: bytes[start..<index], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &buffer)
            case 0..<0x20:
                throw error("control character \(SourceText.describe(byte)) in a string (escape it)")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated string", at: open)
    }

    /// The escape at `\`, appended to `buffer` in UTF-8.
    mutating func escape(into buffer: inout [UInt8]) throws(ReadError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error("unterminated string", at: start) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeAt: start)
            switch unit {
            case 0xD800..<0xDC00:
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("lone high surrogate \\u\(hex(unit)) (a low surrogate must follow)", at: start) }
                index += 2
                let low = try hexQuad(escapeAt: lowStart)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("high surrogate \\u\(hex(unit)) not followed by a low surrogate", at: start)
                }
                SourceText.appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &buffer)
            case 0xDC00..<0xE000:
                throw error("lone low surrogate \\u\(hex(unit))", at: start)
            default:
                SourceText.appendUTF8(unit, to: &buffer)
            }
        default:
            throw error("unknown escape \\\(SourceText.describe(code))", at: start)
        }
    }

    /// Four hexadecimal digits of a `\u` escape.
    mutating func hexQuad(escapeAt start: Int) throws(ReadError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = SourceText.hexValue(bytes[index]) else {
                throw error("\\u needs four hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// `unit` as four uppercase hexadecimal digits.
    func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
