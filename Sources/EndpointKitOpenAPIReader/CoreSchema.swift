/// YAML 1.2's core schema: what an untagged plain scalar is.
enum CoreSchema {
    /// `null`, `Null`, `NULL`, `~` or empty → `.null`; `true`/`True`/`TRUE`/`false`/... →
    /// `.bool`; an integer or float → `.number` with the text as written; anything else →
    /// `.string`.
    static func resolve(_ text: String) -> Node {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first else { return .null }
            switch first {
            case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
                if isNull(bytes) { return .null }
            case UInt8(ascii: "t"), UInt8(ascii: "T"):
                if matches(bytes, "true", "True", "TRUE") { return .bool(true) }
            case UInt8(ascii: "f"), UInt8(ascii: "F"):
                if matches(bytes, "false", "False", "FALSE") { return .bool(false) }
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                if isInteger(bytes) || isFloat(bytes) { return .number(String(decoding: bytes, as: UTF8.self)) }
            default: break
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Whether `text` is a core schema integer: `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
    static func isInteger(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isInteger($0) }
    }

    /// Whether `text` is a core schema float (`.inf` and `.nan` spellings included).
    static func isFloat(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isFloat($0) }
    }

    /// Whether `bytes` is a null spelling.
    private static func isNull(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        (bytes.count == 1 && bytes[0] == UInt8(ascii: "~")) || matches(bytes, "null", "Null", "NULL")
    }

    /// Whether `bytes` is one of three spellings.
    private static func matches(
        _ bytes: UnsafeBufferPointer<UInt8>, _ first: StaticString, _ second: StaticString, _ third: StaticString
    ) -> Bool {
        for word in [first, second, third] {
            let equal = word.withUTF8Buffer { $0.elementsEqual(bytes) }
            if equal { return true }
        }
        return false
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The integer grammar on bytes.
    private static func isInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count > 2 && bytes[0] == UInt8(ascii: "0") {
            if bytes[1] == UInt8(ascii: "o") {
                return bytes.dropFirst(2).allSatisfy { $0 &- UInt8(ascii: "0") < 8 }
            }
            if bytes[1] == UInt8(ascii: "x") {
                return bytes.dropFirst(2).allSatisfy { SourceText.hexValue($0) != nil }
            }
        }
        var digits = bytes[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        return !digits.isEmpty && digits.allSatisfy(isDigit)
    }

    /// The float grammar on bytes: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
    /// `[-+]?.inf` and `.nan` in their three spellings.
    private static func isFloat(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var rest = bytes[...]
        if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
        let special = UnsafeBufferPointer(rebasing: rest)
        if matches(special, ".inf", ".Inf", ".INF") { return true }
        if rest.count == bytes.count && matches(special, ".nan", ".NaN", ".NAN") { return true }
        let integerDigits = rest.prefix(while: isDigit).count
        rest = rest.dropFirst(integerDigits)
        var fractionDigits = 0
        var hasPoint = false
        if rest.first == UInt8(ascii: ".") {
            hasPoint = true
            rest = rest.dropFirst()
            fractionDigits = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fractionDigits)
        }
        guard integerDigits > 0 || (hasPoint && fractionDigits > 0) else { return false }
        if let exponent = rest.first, exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { rest = rest.dropFirst() }
            let exponentDigits = rest.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return false }
            rest = rest.dropFirst(exponentDigits)
        }
        return rest.isEmpty
    }
}
