/// Reads YAML 1.2 (the subset real OpenAPI documents use, and more) into a ``Node``.
///
/// Block and flow collections, every scalar style, comments, anchors, aliases and the `<<` merge
/// key, the core tags (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!map`, `!!seq`) are
/// read; other tags are ignored (the value is read as if untagged) and directives are skipped.
/// Plain scalars resolve with the core schema (null, bool, int and float become `.null`,
/// `.bool` and `.number` with the text as written); quoted and block scalars are strings. A
/// mapping key is its scalar's text; a collection as a key is an error.
///
/// A stream of several documents reads as its **first** document: what follows the first `---`
/// or `...` after it is not read. Nesting deeper than ``maximumDepth`` collections and more than
/// ``maximumAliasExpansion`` nodes produced through aliases are errors, so no input exhausts the
/// stack or memory.
package enum YAMLReader {
    /// The deepest nesting of sequences and mappings read.
    package static let maximumDepth = 512
    /// The most nodes that aliases may produce in one document (the "billion laughs" guard).
    package static let maximumAliasExpansion = 1_000_000

    /// Reads the first document of the YAML stream `bytes` (UTF-8).
    package static func read(_ bytes: [UInt8]) throws(ReadError) -> Node {
        var parser = YAMLParser(bytes: bytes)
        return try parser.stream()
    }

    /// Reads the first document of the YAML stream `text`.
    package static func read(_ text: String) throws(ReadError) -> Node {
        try read(Array(text.utf8))
    }
}

/// The state of one YAML read: the bytes, the read offset and what anchors and aliases need.
///
/// Every function that reads a node leaves ``index`` just after the node's last character (a
/// block scalar: at the start of the line after it; an empty node: where its search for content
/// stopped); the collection around it then checks the rest of the line.
struct YAMLParser {
    /// A node that an anchor named, for its aliases.
    struct Anchored {
        /// The node.
        var node: Node
        /// How many nodes it is (aliases inside it counted by what they produced).
        var size: Int
        /// Its text when it is a scalar (an alias used as a mapping key is that text).
        var text: String?
    }

    /// The document.
    let bytes: [UInt8]
    /// Where the text begins (after a byte order mark).
    let start: Int
    /// The offset of the next byte to read.
    var index: Int
    /// How many collections enclose the node being read.
    var depth = 0
    /// The anchors defined so far.
    var anchors: [String: Anchored] = [:]
    /// Nodes produced so far, those produced through aliases included.
    var nodeCount = 0
    /// Nodes produced through aliases so far.
    var aliasExpansion = 0
    /// The text of the last node read when it was a scalar, `nil` after a collection.
    var lastScalarText: String?

    /// A parser at the start of `bytes` (after a byte order mark).
    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.start = SourceText.contentStart(of: bytes)
        self.index = start
    }

    /// The byte at `offset`, or 0 past the end (the text has no NUL: ``validate()`` refuses it).
    @inline(__always) func byte(_ offset: Int) -> UInt8 {
        offset >= 0 && offset < bytes.count ? bytes[offset] : 0
    }

    /// The byte at the read offset, or 0 at the end.
    var current: UInt8 { byte(index) }

    /// Whether the read offset is past the last byte.
    var atEnd: Bool { index >= bytes.count }

    /// An error at `offset` (the read offset by default).
    func error(_ message: String, at offset: Int? = nil) -> ReadError {
        let location = SourceText.location(of: offset ?? index, in: bytes)
        return ReadError(message, line: location.line, column: location.column)
    }

    /// Refuses text YAML cannot hold: invalid UTF-8 and control characters other than tab,
    /// line feed and carriage return.
    func validate() throws(ReadError) {
        if let invalid = SourceText.firstInvalidUTF8(in: bytes) { throw error("invalid UTF-8", at: invalid) }
        for offset in start..<bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D || byte == 0x7F {
                throw error("control character \(SourceText.describe(byte)) is not allowed", at: offset)
            }
        }
    }

    /// The whole stream: directives, then the first document.
    mutating func stream() throws(ReadError) -> Node {
        try validate()
        var sawDirective = false
        while true {
            try skipToNextContent()
            if atEnd { return .null }
            if current == UInt8(ascii: "%") && column(of: index) == 0 {
                sawDirective = true
                skipRestOfLine()
            } else if isDocumentMarker(at: index, ".") {
                index += 3
                try finishLine()
            } else {
                break
            }
        }
        let root: Node
        if isDocumentMarker(at: index, "-") {
            index += 3
            root = try blockNode(parent: -1, mode: .document)
        } else {
            if sawDirective { throw error("expected '---' after the directives") }
            root = try blockNode(parent: -1, mode: .bare)
        }
        try finishLine()
        try skipToNextContent()
        guard atEnd || isDocumentMarker(at: index, "-") || isDocumentMarker(at: index, ".") else {
            throw error("expected the end of the document, found \(SourceText.describe(current))")
        }
        return root
    }
}

extension YAMLParser {
    /// Whether `byte` is a space or a tab.
    @inline(__always) func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether `byte` is a line feed or a carriage return.
    @inline(__always) func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// Whether `byte` ends a token: a blank, a line break or the end (0).
    @inline(__always) func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0
    }

    /// Whether `byte` is one of `,[]{}`.
    @inline(__always) func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}")
    }

    /// The 0-based column of `offset`, in bytes from the start of its line.
    func column(of offset: Int) -> Int {
        var lineStart = offset
        while lineStart > start, !isBreak(bytes[lineStart - 1]) { lineStart -= 1 }
        return offset - lineStart
    }

    /// Whether only blanks precede `offset` on its line.
    func isIndentation(_ offset: Int) -> Bool {
        var before = offset
        while before > start, isBlank(bytes[before - 1]) { before -= 1 }
        return before == start || isBreak(bytes[before - 1])
    }

    /// Whether a document marker (`---` with `marker` "-", `...` with ".") begins at `offset`.
    func isDocumentMarker(at offset: Int, _ marker: Unicode.Scalar) -> Bool {
        let byte = UInt8(ascii: marker)
        return self.byte(offset) == byte && self.byte(offset + 1) == byte && self.byte(offset + 2) == byte
            && isSeparator(self.byte(offset + 3)) && (offset == start || isBreak(bytes[offset - 1]))
    }

    /// Whether either document marker begins at `offset`.
    func isAnyDocumentMarker(at offset: Int) -> Bool {
        isDocumentMarker(at: offset, "-") || isDocumentMarker(at: offset, ".")
    }

    /// The offset after the line break at `offset` (CR LF is one break).
    func afterBreak(_ offset: Int) -> Int {
        bytes[offset] == 0x0D && byte(offset + 1) == 0x0A ? offset + 2 : offset + 1
    }

    /// Moves the read offset to the line break (or end) that ends the current line.
    mutating func skipRestOfLine() {
        while index < bytes.count, !isBreak(bytes[index]) { index += 1 }
    }

    /// Skips blanks on the current line.
    mutating func skipBlanks() {
        while index < bytes.count, isBlank(bytes[index]) { index += 1 }
    }

    /// Skips blanks, comments and line breaks to the next content (or the end). A tab in the
    /// indentation of a line with content is an error: block structure is measured in spaces.
    mutating func skipToNextContent() throws(ReadError) {
        var lineStart = isIndentation(index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 {
                index += 1
            } else if byte == 0x09 {
                let tab = index
                skipBlanks()
                if lineStart && !isSeparator(current) && current != UInt8(ascii: "#") {
                    throw error("a tab character cannot indent a line", at: tab)
                }
            } else if byte == UInt8(ascii: "#") {
                skipRestOfLine()
            } else if isBreak(byte) {
                index = afterBreak(index)
                lineStart = true
            } else {
                return
            }
        }
    }

    /// Checks that the rest of the current line is blank or a comment, after a node. A read
    /// offset in a line's indentation (a block scalar or an empty node ended there) is fine.
    mutating func finishLine() throws(ReadError) {
        let node = index
        skipBlanks()
        if current == UInt8(ascii: "#") && (index > node || isIndentation(index)) {
            skipRestOfLine()
            return
        }
        if atEnd || isBreak(current) || isIndentation(node) { return }
        if current == UInt8(ascii: ":") && isSeparator(byte(index + 1)) {
            throw error("a mapping value is not allowed here (a key must be on one line, in a block mapping)")
        }
        throw error("unexpected \(SourceText.describe(current)) after a node")
    }
}
