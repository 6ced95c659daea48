extension YAMLParser {
    /// What a block scalar keeps of its final line break and trailing empty lines.
    enum Chomping {
        /// `-`: none.
        case strip
        /// No indicator: the final line break.
        case clip
        /// `+`: all of them.
        case keep
    }

    /// A literal (`|`) or folded (`>`) block scalar at its indicator, in a node at indentation
    /// `parent`. The read offset ends at the start of the first line after it.
    mutating func blockScalar(parent: Int) throws(ReadError) -> String {
        let literal = current == UInt8(ascii: "|")
        index += 1
        var chomping = Chomping.clip
        var explicitIndent: Int?
        for _ in 0..<2 {
            switch current {
            case UInt8(ascii: "1")...UInt8(ascii: "9") where explicitIndent == nil:
                explicitIndent = Int(current - UInt8(ascii: "0"))
                index += 1
            case UInt8(ascii: "-") where chomping == .clip, UInt8(ascii: "+") where chomping == .clip:
                chomping = current == UInt8(ascii: "-") ? .strip : .keep
                index += 1
            case UInt8(ascii: "0"):
                throw error("a block scalar's indentation indicator is 1 to 9")
            default: break
            }
        }
        let headerEnd = index
        skipBlanks()
        if current == UInt8(ascii: "#") && index > headerEnd { skipRestOfLine() }
        guard atEnd || isBreak(current) else {
            throw error("unexpected \(SourceText.describe(current)) in a block scalar header")
        }
        if !atEnd { index = afterBreak(index) }
        let indent = try contentIndent(parent: parent, explicit: explicitIndent)
        return blockScalarLines(indent: indent, literal: literal, chomping: chomping)
    }

    /// The indentation of a block scalar's content: `parent` plus the explicit indicator, or
    /// that of its first non-empty line (at least `parent + 1`).
    private func contentIndent(parent: Int, explicit: Int?) throws(ReadError) -> Int {
        if let explicit { return max(0, parent + explicit) }
        var cursor = index
        var widestEmpty = 0
        while cursor < bytes.count {
            let lineStart = cursor
            while byte(cursor) == 0x20 { cursor += 1 }
            let spaces = cursor - lineStart
            guard isBreak(byte(cursor)) else {
                if cursor >= bytes.count { break }
                if spaces > parent && spaces < widestEmpty {
                    throw error(
                        "a leading empty line has more spaces than the block scalar's first line", at: lineStart)
                }
                return max(spaces, parent + 1)
            }
            widestEmpty = max(widestEmpty, spaces)
            cursor = afterBreak(cursor)
        }
        return max(widestEmpty, parent + 1)
    }

    /// The lines of a block scalar indented by `indent`, joined (literal) or folded, chomped.
    private mutating func blockScalarLines(indent: Int, literal: Bool, chomping: Chomping) -> String {
        var text: [UInt8] = []
        var emptyLines = 0
        var sawContent = false
        var previousMoreIndented = false
        var endsWithBreak = false
        while index < bytes.count {
            let lineStart = index
            var spaces = 0
            while spaces < indent && byte(index + spaces) == 0x20 { spaces += 1 }
            let first = byte(index + spaces)
            if index + spaces >= bytes.count {
                index += spaces
                break
            }
            if isBreak(first) {
                emptyLines += 1
                index = afterBreak(index + spaces)
                continue
            }
            if spaces < indent || (indent == 0 && isAnyDocumentMarker(at: lineStart)) {
                index = lineStart
                break
            }
            let moreIndented = isBlank(first)
            if sawContent {
                if literal || moreIndented || previousMoreIndented {
                    text.append(contentsOf: repeatElement(0x0A, count: emptyLines + 1))
                } else if emptyLines == 0 {
                    text.append(0x20)
                } else {
                    text.append(contentsOf: repeatElement(0x0A, count: emptyLines))
                }
            } else {
                text.append(contentsOf: repeatElement(0x0A, count: emptyLines))
            }
            index += spaces
            let contentStart = index
            skipRestOfLine()
            text.append(contentsOf: bytes[contentStart..<index])
            sawContent = true
            previousMoreIndented = moreIndented
            emptyLines = 0
            endsWithBreak = !atEnd
            if !atEnd { index = afterBreak(index) }
        }
        switch chomping {
        case .strip: break
        case .clip: if sawContent && endsWithBreak { text.append(0x0A) }
        case .keep:
            if sawContent && endsWithBreak { text.append(0x0A) }
            text.append(contentsOf: repeatElement(0x0A, count: emptyLines))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
