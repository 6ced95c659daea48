extension YAMLParser {
    /// Whether a plain scalar may begin at the read offset.
    func isPlainStart(flow: Bool) -> Bool { isPlainStart(at: index, flow: flow) }

    /// Whether a plain scalar may begin at `offset`: not at an indicator, except `-`, `?` and
    /// `:` followed by a character that is "safe" (no separator; in flow, no flow indicator).
    func isPlainStart(at offset: Int, flow: Bool) -> Bool {
        let first = byte(offset)
        switch first {
        case 0, 0x20, 0x09, 0x0A, 0x0D: return false
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            let next = byte(offset + 1)
            return !isSeparator(next) && !(flow && isFlowIndicator(next))
        case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
            UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"):
            return false
        default: return true
        }
    }

    /// Where the plain text on the current line ends, from the read offset: before `: `, ` #`,
    /// a line break or (in flow) a flow indicator or `:` before one. Returns the end of the
    /// text without trailing blanks; the read offset stops at the terminator.
    private mutating func plainLine(flow: Bool) -> Int {
        var end = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") {
                let next = self.byte(index + 1)
                if isSeparator(next) || (flow && isFlowIndicator(next)) { break }
            } else if isBlank(byte) {
                if self.byte(index + 1) == UInt8(ascii: "#") { break }
                index += 1
                continue
            } else if isBreak(byte) || (flow && isFlowIndicator(byte)) {
                break
            }
            index += 1
            end = index
        }
        return end
    }

    /// A one-line plain scalar used as an implicit key; the read offset stops after its text.
    mutating func plainKey() -> String {
        let textStart = index
        let end = plainLine(flow: false)
        index = end
        return String(decoding: bytes[textStart..<end], as: UTF8.self)
    }

    /// A plain scalar, folded over lines indented more than `parent` (in flow, any line): a line
    /// break between lines is a space, each empty line a line feed.
    mutating func plainScalar(parent: Int, flow: Bool) throws(ReadError) -> String {
        var segmentStart = index
        var end = plainLine(flow: flow)
        var buffer: [UInt8] = []
        var folded = false
        while isBreak(current) {
            // Look past the line break and any empty lines to the next line's text.
            var cursor = index
            var breaks = 0
            var indent = 0
            while isBreak(byte(cursor)) {
                cursor = afterBreak(cursor)
                breaks += 1
                indent = 0
                while byte(cursor) == 0x20 {
                    cursor += 1
                    indent += 1
                }
                while isBlank(byte(cursor)) { cursor += 1 }
            }
            let next = byte(cursor)
            let after = byte(cursor + 1)
            let endsScalar =
                next == 0 || next == UInt8(ascii: "#") || (!flow && indent <= parent)
                || isAnyDocumentMarker(at: cursor)
                || (next == UInt8(ascii: ":") && (isSeparator(after) || flow && isFlowIndicator(after)))
                || (flow && isFlowIndicator(next))
            if endsScalar { break }
            buffer.append(contentsOf: bytes[segmentStart..<end])
            folded = true
            if breaks == 1 {
                buffer.append(0x20)
            } else {
                buffer.append(contentsOf: repeatElement(0x0A, count: breaks - 1))
            }
            index = cursor
            segmentStart = index
            end = plainLine(flow: flow)
        }
        index = end
        guard folded else { return String(decoding: bytes[segmentStart..<end], as: UTF8.self) }
        buffer.append(contentsOf: bytes[segmentStart..<end])
        return String(decoding: buffer, as: UTF8.self)
    }
}
