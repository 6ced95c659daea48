import Foundation

/// Writes an encoded ``FormNode`` tree as name/value pairs: fields under bracketed names
/// (`filter[owner][name]`), lists in their style, `nil` left out or empty.
struct FormFlattener {
    let style: FormEncoder.ArrayStyle
    /// Whether a `nil` is written with an empty value (else it is left out).
    let nilValue: Bool
    private(set) var pairs: [(name: String, value: String)] = []

    init(style: FormEncoder.ArrayStyle, nilValue: Bool) {
        self.style = style
        self.nilValue = nilValue
    }

    mutating func flatten(_ node: FormNode, name: String) throws(FormEncodingFailure) {
        switch node.content {
        case .unset: return
        case .text(let text): pairs.append((name, text))
        case .null: if nilValue { pairs.append((name, "")) }
        case .keyed(let keyed):
            for field in keyed.fields { try flatten(field.node, name: name + "[" + field.name + "]") }
        case .list(let list): try flatten(list: list.nodes, name: name)
        }
    }

    private mutating func flatten(list nodes: [FormNode], name: String) throws(FormEncodingFailure) {
        switch style {
        case .indexInBrackets:
            for (index, node) in nodes.enumerated() { try flatten(node, name: name + "[\(index)]") }
        case .brackets:
            for (index, node) in nodes.enumerated() {
                if case .list = node.content { throw Self.listInList(name + "[\(index)]") }
                try flatten(node, name: name + "[]")
            }
        case .repeatedKey, .commaSeparated:
            var texts: [String] = []
            for (index, node) in nodes.enumerated() {
                switch node.content {
                case .unset: continue
                case .text(let text): texts.append(text)
                case .null: if nilValue { texts.append("") }
                case .list: throw Self.listInList(name + "[\(index)]")
                case .keyed:
                    let way = style == .repeatedKey ? "repeated keys" : "comma-separated values"
                    throw FormEncodingFailure(
                        name: name + "[\(index)]",
                        reason: "a list of keyed values cannot be written as \(way): set the FormEncoder's "
                            + "arrayEncoding to .indexInBrackets or .brackets")
                }
            }
            if style == .repeatedKey {
                pairs += texts.map { (name, $0) }
            } else if !texts.isEmpty {
                pairs.append((name, texts.joined(separator: ",")))
            }
        }
    }

    private static func listInList(_ name: String) -> FormEncodingFailure {
        FormEncodingFailure(
            name: name,
            reason: "a list inside a list can only be written with the FormEncoder's arrayEncoding .indexInBrackets")
    }
}

/// `JSONEncoder`'s conversion of a key to snake case: words split where a lowercase letter is
/// followed by an uppercase one, and before the last capital of a run of them (`myURLValue` is
/// `my_url_value`); leading and trailing underscores are kept.
enum SnakeCase {
    static func convert(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        guard scalars.count > 1 else { return key.lowercased() }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<scalars.count).first(where: { isUppercase(scalars[$0]) }) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<scalars.count).first(where: { isLowercase(scalars[$0]) }) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, up to the capital before the lowercase letter.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
            if searchStart >= scalars.count { break }
        }
        words.append(wordStart..<scalars.count)
        return words.map { range in
            var word = String.UnicodeScalarView()
            word.append(contentsOf: scalars[range])
            return String(word).lowercased()
        }
        .joined(separator: "_")
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .uppercaseLetter || scalar.properties.generalCategory == .titlecaseLetter
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
