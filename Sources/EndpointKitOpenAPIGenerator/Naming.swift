/// Swift names from the document's names: types in UpperCamelCase, members in lowerCamelCase,
/// keywords escaped, clashes resolved.
enum Naming {
    /// Words Swift reserves: a member with one of these names is written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "package", "async", "some", "any", "actor", "consume", "borrowing", "consuming", "each", "macro",
        "nonisolated", "isolated", "indirect", "willSet", "didSet", "get", "set", "mutating", "lazy", "weak",
        "unowned", "final", "required", "optional", "override", "dynamic", "convenience", "prefix", "postfix",
        "infix", "Type", "Protocol", "sending", "copy", "discard",
    ]

    /// Member names backticks do not make usable (`Foo.self`, `Foo.init`), or that would meet a
    /// member the generated type has (`hashValue` of `Hashable`, `rawValue` and `unknown` of enums).
    static let unusableMembers: Set<String> = [
        "self", "init", "deinit", "subscript", "super", "hashValue", "rawValue", "unknown", "Type", "Protocol",
        "Self", "_",
    ]

    /// Type names generated code uses or that shadow what it uses: a schema named one of these is renamed.
    static let reservedTypes: Set<String> = [
        "Response", "Element", "Data", "Date", "URL", "UUID", "Error", "Result", "Empty", "JSONValue", "Codable",
        "Decodable", "Encodable", "Decoder", "Encoder", "Hashable", "Equatable", "Sendable", "String", "Int",
        "Int32", "Int64", "Double", "Float", "Bool", "Array", "Dictionary", "Optional", "Set", "Character", "Any",
        "AnyObject", "Self", "Type", "Protocol", "Never", "Void", "Foundation", "FoundationNetworking",
        "EndpointKit", "EndpointKitStreaming", "EndpointKitStubs", "APIRequest", "StreamingRequest", "RequestPath",
        "RequestParameters", "QueryItems", "QueryValue", "HTTPHeaders", "HTTPMethod", "MultipartFormData",
        "ServerSentEvent", "StreamFormat", "StreamSummary", "StubResponse", "SampleResponseProviding",
        "RequestInterceptor", "RequestContext", "RequestAdapter", "RequestRetrier", "URLRequest", "URLComponents",
        "URLQueryItem", "JSONDecoder", "JSONEncoder", "DecodingError", "EncodingError", "CodingKey", "CodingKeys",
        "FormEncoder", "DecodingContext", "Hasher", "RawRepresentable", "CustomStringConvertible", "Substring",
        "Sequence", "Collection", "MainActor", "Task", "Swift", "TimeInterval", "Decimal", "Character",
        "DiscriminatorKey", "Storage", "Wrapped", "Key", "Value",
    ]

    /// The words of a name: runs of letters and digits, split at other characters.
    static func pieces(_ name: String) -> [String] {
        name.split { !($0.isLetter || $0.isNumber) || !$0.isASCII }.map(String.init)
    }

    /// `pet_store-item` → `PetStoreItem`; `""` → `Unnamed`; a leading digit gets `_`.
    static func typeName(_ name: String) -> String {
        let joined = pieces(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first else { return "Unnamed" }
        return first.isNumber ? "_" + joined : joined
    }

    /// `max_tokens` → `maxTokens`, `URLPath` → `urlPath`, `X-Rate-Limit` → `xRateLimit`; `""` → `value`.
    /// A leading digit gets `_`; not escaped.
    static func memberName(_ name: String) -> String {
        let words = pieces(name)
        guard let first = words.first else { return "value" }
        let rest = words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let joined = lowercasedHead(first) + rest.joined()
        return joined.first?.isNumber == true ? "_" + joined : joined
    }

    /// A word with its leading capitals lowered: `URL` → `url`, `URLPath` → `urlPath`, `Pet` → `pet`.
    private static func lowercasedHead(_ word: String) -> String {
        let characters = Array(word)
        var count = 0
        while count < characters.count, characters[count].isUppercase { count += 1 }
        if count == 0 { return word }
        if count == characters.count { return word.lowercased() }
        let lowered = count == 1 ? 1 : count - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// A member name as written in code: keywords in backticks.
    static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// A member name as an argument label of a call: only `inout` needs
    /// backticks there (the compiler warns about others).
    static func label(_ name: String) -> String { name == "inout" ? "`\(name)`" : name }

    /// A name as a Swift string literal's content: `\`, `"` and control characters escaped.
    static func literal(_ text: String) -> String {
        quoted(text) { "\\u{" + String($0, radix: 16) + "}" }
    }

    /// `text` in double quotes with `\`, `"`, line breaks, tabs, other control characters and the
    /// line separators escaped: Swift's and JSON's string syntax, which differ only in how a
    /// scalar is written as a number (`escape`).
    static func quoted(_ text: String, escape: (UInt32) -> String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value)
                    || (0x80...0x9F).contains(scalar.value)
                {
                    result += escape(scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// Hands out names unique in one scope: a name asked for twice gets `2`, `3`, … in the order asked.
struct NameScope {
    /// The names given out or reserved.
    private(set) var taken: Set<String>

    /// A scope where `reserved` are already taken.
    init(reserving reserved: Set<String> = []) { taken = reserved }

    /// `name`, or `name2`, `name3`, … when taken; then it is taken.
    mutating func claim(_ name: String) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// A member name for `original`: camelCased, unusable names suffixed `Value`, then unique.
    mutating func claimMember(_ original: String) -> String {
        var name = Naming.memberName(original)
        if Naming.unusableMembers.contains(name) { name += "Value" }
        return claim(name)
    }

    /// Marks `name` taken.
    mutating func reserve(_ name: String) { taken.insert(name) }
}
