/// Accumulates generated lines with four-space indentation.
struct CodeWriter {
    /// The lines written so far, each without its newline.
    private(set) var lines: [String] = []
    /// The current indentation depth.
    private var depth = 0

    /// Appends a line at the current indentation (an empty line stays empty).
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Writes `header {`, the body one level deeper, then `}`.
    mutating func block(_ header: String, _ body: (inout CodeWriter) -> Void) {
        line(header + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Writes `switch … {`, its cases at the same depth (Swift's usual style), then `}`.
    mutating func switchBlock(_ header: String, _ body: (inout CodeWriter) -> Void) {
        line(header + " {")
        body(&self)
        line("}")
    }

    /// Writes `///` lines for `text`: every kind of line break splits it, control characters are
    /// dropped and trailing blank lines removed. Nothing for empty text.
    mutating func documentation(_ text: String?) {
        guard let text else { return }
        for line in Self.documentationLines(text) { self.line(line.isEmpty ? "///" : "/// " + line) }
    }

    /// The lines of a doc comment's text.
    static func documentationLines(_ text: String) -> [String] {
        var lines: [String] = [""]
        var previous: UInt32 = 0
        for scalar in text.unicodeScalars {
            defer { previous = scalar.value }
            switch scalar.value {
            case 0x0A where previous == 0x0D: continue
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: lines.append("")
            case 0x09: lines[lines.count - 1] += " "
            case 0..<0x20, 0x7F, 0x80..<0xA0, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: continue
            default: lines[lines.count - 1].unicodeScalars.append(scalar)
            }
        }
        var trimmed = lines.map { line in
            var line = line
            while line.last == " " { line.removeLast() }
            return line
        }
        while trimmed.last?.isEmpty == true { trimmed.removeLast() }
        while trimmed.first?.isEmpty == true { trimmed.removeFirst() }
        var result: [String] = []
        for line in trimmed where !(line.isEmpty && result.last?.isEmpty == true) { result.append(line) }
        return result
    }

    /// The text, each line followed by a newline.
    var text: String { lines.map { $0 + "\n" }.joined() }
}

extension CodeWriter {
    /// Appends the lines of `other` as they are.
    mutating func append(_ other: CodeWriter) { lines += other.lines }
}
