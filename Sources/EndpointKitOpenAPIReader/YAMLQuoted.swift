extension YAMLParser {
    /// A single-quoted scalar at `'`: `''` is a quote; lines fold as in a plain scalar.
    mutating func singleQuoted() throws(ReadError) -> String {
        let open = index
        index += 1
        let textStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                if self.byte(index + 1) == UInt8(ascii: "'") { break }
                defer { index += 1 }
                return String(decoding: bytes[textStart..<index], as: UTF8.self)
            }
            if isBreak(byte) || isBlank(byte) { break }
            index += 1
        }
        var buffer = Array(bytes[textStart..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                if self.byte(index + 1) == UInt8(ascii: "'") {
                    buffer.append(byte)
                    index += 2
                    continue
                }
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if isBlank(byte) || isBreak(byte) {
                try whitespace(into: &buffer, open: open)
            } else {
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated single-quoted scalar", at: open)
    }

    /// A double-quoted scalar at `"`: escapes decoded; lines fold as in a plain scalar, and an
    /// escaped line break joins lines without a space.
    mutating func doubleQuoted() throws(ReadError) -> String {
        let open = index
        index += 1
        let textStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: bytes[textStart..<index], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || isBreak(byte) || isBlank(byte) { break }
            index += 1
        }
        var buffer = Array(bytes[textStart..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                if isBreak(self.byte(index + 1)) {
                    index = afterBreak(index + 1)
                    try foldedLines(into: &buffer, open: open, joined: true)
                } else {
                    try escape(into: &buffer)
                }
            } else if isBlank(byte) || isBreak(byte) {
                try whitespace(into: &buffer, open: open)
            } else {
                buffer.append(byte)
                index += 1
            }
        }
        throw error("unterminated double-quoted scalar", at: open)
    }

    /// Blanks inside a quoted scalar: kept when the line goes on, dropped before a line break,
    /// which folds with the lines after it.
    private mutating func whitespace(into buffer: inout [UInt8], open: Int) throws(ReadError) {
        let blanksStart = index
        skipBlanks()
        guard isBreak(current) else {
            if atEnd { return }
            buffer.append(contentsOf: bytes[blanksStart..<index])
            return
        }
        index = afterBreak(index)
        try foldedLines(into: &buffer, open: open, joined: false)
    }

    /// After a line break in a quoted scalar: each empty line is a line feed; without one the
    /// break is a space (nothing when `joined`, after an escaped break). Leading blanks of the
    /// next line are dropped.
    private mutating func foldedLines(into buffer: inout [UInt8], open: Int, joined: Bool) throws(ReadError) {
        var empty = 0
        while true {
            skipBlanks()
            guard isBreak(current) else { break }
            index = afterBreak(index)
            empty += 1
        }
        if isAnyDocumentMarker(at: index) { throw error("a document marker inside a quoted scalar", at: index) }
        if empty > 0 {
            buffer.append(contentsOf: repeatElement(0x0A, count: empty))
        } else if !joined {
            buffer.append(0x20)
        }
    }

    /// The escape at `\` in a double-quoted scalar, appended in UTF-8.
    private mutating func escape(into buffer: inout [UInt8]) throws(ReadError) {
        let escapeStart = index
        let code = byte(index + 1)
        index += 2
        let simple: UInt32? =
            switch code {
            case UInt8(ascii: "0"): 0
            case UInt8(ascii: "a"): 0x07
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "t"), 0x09: 0x09
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "v"): 0x0B
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "e"): 0x1B
            case 0x20, UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "\\"): UInt32(code)
            case UInt8(ascii: "N"): 0x85
            case UInt8(ascii: "_"): 0xA0
            case UInt8(ascii: "L"): 0x2028
            case UInt8(ascii: "P"): 0x2029
            default: nil
            }
        if let simple {
            SourceText.appendUTF8(simple, to: &buffer)
            return
        }
        let digits: Int
        switch code {
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default:
            if code == 0 { throw error("unterminated double-quoted scalar", at: escapeStart) }
            throw error("unknown escape \\\(SourceText.describe(code))", at: escapeStart)
        }
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = SourceText.hexValue(current) else {
                throw error("\\\(Character(Unicode.Scalar(code))) needs \(digits) hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        guard value < 0xD800 || (value >= 0xE000 && value <= 0x10FFFF) else {
            throw error("escape \\\(Character(Unicode.Scalar(code))) is not a Unicode scalar value", at: escapeStart)
        }
        SourceText.appendUTF8(value, to: &buffer)
    }
}
