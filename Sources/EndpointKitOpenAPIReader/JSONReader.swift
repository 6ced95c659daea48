/// Reads JSON (RFC 8259, strictly) into a ``Node``.
///
/// Members keep their document order and a repeated key is kept (``Node``'s subscript finds the
/// first); a number keeps its literal text (`1.8e19`, `-0` and `9223372036854775808` are all
/// read); a leading byte order mark is skipped. Invalid UTF-8, a control character or a lone
/// surrogate in a string, trailing commas, comments and anything after the value are errors, and
/// so is nesting deeper than ``maximumDepth`` arrays and objects.
package enum JSONReader {
    /// The deepest nesting of arrays and objects read.
    package static let maximumDepth = 512

    /// Reads the JSON document `bytes` (UTF-8).
    package static func read(_ bytes: [UInt8]) throws(ReadError) -> Node {
        var parser = JSONParser(bytes: bytes)
        return try parser.document()
    }

    /// Reads the JSON document `text`.
    package static func read(_ text: String) throws(ReadError) -> Node {
        try read(Array(text.utf8))
    }
}

/// The state of one ``JSONReader/read(_:)-([UInt8])`` call: the bytes and the read offset.
struct JSONParser {
    /// The document.
    let bytes: [UInt8]
    /// The offset of the next byte to read.
    var index: Int
    /// How many arrays and objects enclose the value being read.
    var depth = 0

    /// A parser at the start of `bytes` (after a byte order mark).
    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.index = SourceText.contentStart(of: bytes)
    }

    /// The whole document: one value between optional whitespace.
    mutating func document() throws(ReadError) -> Node {
        if let invalid = SourceText.firstInvalidUTF8(in: bytes) {
            throw error("invalid UTF-8", at: invalid)
        }
        skipWhitespace()
        let value = try value()
        skipWhitespace()
        guard index >= bytes.count else {
            throw error("unexpected \(SourceText.describe(bytes[index])) after the value")
        }
        return value
    }

    /// An error at `offset` (the read offset by default).
    func error(_ message: String, at offset: Int? = nil) -> ReadError {
        let location = SourceText.location(of: offset ?? index, in: bytes)
        return ReadError(message, line: location.line, column: location.column)
    }

    /// Skips JSON's four whitespace bytes.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// One value at the read offset.
    mutating func value() throws(ReadError) -> Node {
        guard index < bytes.count else { throw error("expected a value, found the end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("expected a value, found \(SourceText.describe(bytes[index]))")
        }
    }

    /// Reads the keyword `word` (`true`, `false` or `null`).
    mutating func literal(_ word: StaticString) throws(ReadError) {
        let start = index
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + count <= bytes.count && bytes[index..<(index + count)].elementsEqual(expected)
        }
        guard matches else { throw error("expected a value, found \(SourceText.describe(bytes[start]))", at: start) }
        index += count
    }

    /// Enters an array or object, refusing nesting deeper than the limit.
    mutating func enter() throws(ReadError) {
        depth += 1
        guard depth <= JSONReader.maximumDepth else {
            throw error("nesting deeper than \(JSONReader.maximumDepth) arrays and objects")
        }
    }

    /// An array at `[`.
    mutating func array() throws(ReadError) -> Node {
        try enter()
        index += 1
        var elements: [Node] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found the end of the document") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw error("expected ',' or ']', found \(SourceText.describe(bytes[index]))")
            }
        }
    }

    /// An object at `{`.
    mutating func object() throws(ReadError) -> Node {
        try enter()
        index += 1
        var members: [Node.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                let found = index < bytes.count ? SourceText.describe(bytes[index]) : "the end of the document"
                throw error("expected a string key, found \(found)")
            }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                let found = index < bytes.count ? SourceText.describe(bytes[index]) : "the end of the document"
                throw error("expected ':' after the key, found \(found)")
            }
            index += 1
            skipWhitespace()
            members.append(Node.Member(key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found the end of the document") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw error("expected ',' or '}', found \(SourceText.describe(bytes[index]))")
            }
        }
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, returned as written.
    mutating func number() throws(ReadError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number cannot have a leading zero") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Whether `byte` is an ASCII digit.
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Skips ASCII digits.
    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
}
