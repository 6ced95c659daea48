import EndpointKitOpenAPIReader

/// A problem with an option's value, in a configuration file or on the command line.
package struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the option.
    package var message: String

    /// Creates an error.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}

extension GeneratorOptions {
    /// The keys a configuration file may have, in the order `--help` lists them.
    package static let configurationKeys = [
        "tags", "paths", "operations", "access", "prefix", "skipSchemas", "layout", "name", "modelFiles", "samples",
        "equatable",
    ]

    /// Sets the options a configuration file names: a mapping (YAML or JSON, read by
    /// `DocumentReader`) from the keys of ``configurationKeys`` to values. Throws, naming the key,
    /// for an unknown key or a value of the wrong type.
    package mutating func apply(configuration node: Node) throws(OptionError) {
        guard let members = node.members else {
            throw OptionError("the configuration must be a mapping of option names to values")
        }
        for member in members {
            let key = member.key
            let value = member.value
            switch key {
            case "tags": tags = try Self.strings(value, key)
            case "paths": paths = try Self.strings(value, key)
            case "operations": operationIDs = try Self.strings(value, key)
            case "skipSchemas": skippedSchemas = try Self.strings(value, key)
            case "access": accessLevel = try Self.accessLevel(Self.string(value, key), key)
            case "layout": layout = try Self.layout(Self.string(value, key), key)
            case "prefix": typePrefix = try Self.prefix(Self.string(value, key), key)
            case "name": name = try Self.fileName(Self.string(value, key), key)
            case "modelFiles":
                guard case .number(let literal) = value else { throw OptionError("\(key) must be an integer") }
                modelFiles = try Self.modelFiles(literal, key)
            case "samples":
                guard case .bool(let flag) = value else { throw OptionError("\(key) must be true or false") }
                samples = flag
            case "equatable":
                guard case .bool(let flag) = value else { throw OptionError("\(key) must be true or false") }
                equatable = flag
            default:
                throw OptionError(
                    "unknown key \(key); the keys are " + Self.configurationKeys.joined(separator: ", "))
            }
        }
    }

    /// An access level from its name.
    package static func accessLevel(_ text: String, _ option: String) throws(OptionError) -> AccessLevel {
        guard let level = AccessLevel(rawValue: text) else {
            throw OptionError("\(option) must be public, package or internal, not \(text)")
        }
        return level
    }

    /// A layout from its name.
    package static func layout(_ text: String, _ option: String) throws(OptionError) -> Layout {
        guard let layout = Layout(rawValue: text) else {
            throw OptionError("\(option) must be single, operation or tag, not \(text)")
        }
        return layout
    }

    /// A type prefix: letters, digits and `_`, not starting with a digit.
    package static func prefix(_ text: String, _ option: String) throws(OptionError) -> String {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }), text.first?.isNumber != true
        else { throw OptionError("\(option) must be letters, digits and _, not starting with a digit") }
        return text
    }

    /// A base file name: letters, digits, `_`, `-` and `.`, not starting with `.`.
    package static func fileName(_ text: String, _ option: String) throws(OptionError) -> String {
        guard !text.isEmpty, text.first != ".",
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) })
        else { throw OptionError("\(option) must be letters, digits, _, - and ., not starting with .") }
        return text
    }

    /// A number of model files, 1 to 1000.
    package static func modelFiles(_ text: String, _ option: String) throws(OptionError) -> Int {
        guard let count = Int(text), (1...1000).contains(count) else {
            throw OptionError("\(option) must be an integer from 1 to 1000, not \(text)")
        }
        return count
    }

    /// The text of a string value.
    private static func string(_ value: Node, _ key: String) throws(OptionError) -> String {
        guard let text = value.string else { throw OptionError("\(key) must be a string") }
        return text
    }

    /// The texts of a list of strings.
    private static func strings(_ value: Node, _ key: String) throws(OptionError) -> [String] {
        guard let elements = value.elements else { throw OptionError("\(key) must be a list of strings") }
        var texts: [String] = []
        for element in elements {
            guard let text = element.string else { throw OptionError("\(key) must be a list of strings") }
            texts.append(text)
        }
        return texts
    }
}
