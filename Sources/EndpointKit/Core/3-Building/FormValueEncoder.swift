import Foundation

/// Writes an `Encodable` value as query or form items, as a ``FormEncoder`` says: the value is
/// encoded into a tree of ``FormNode``s, which is then flattened into bracketed names.
enum FormValueEncoder {
    /// The items of `parameters`' value, lists written per its encoder or else `arrays` (the
    /// client's array encoding).
    static func items(
        of parameters: EncodableParameters, arrays: ArrayEncoding
    ) throws(FormEncodingFailure)
        -> QueryItems
    {
        let options = parameters.encoder
        let state = FormEncodingState(options: options)
        let root = FormNode()
        do {
            try state.encode(parameters.value, into: root, at: [])
        } catch let failure as FormEncodingFailure {
            throw failure
        } catch {
            throw state.failure ?? FormEncodingFailure(name: "", reason: "the value's encode(to:) threw: \(error)")
        }
        if let failure = state.failure { throw failure }

        let fields: [(name: String, node: FormNode)]
        switch root.content {
        case .unset: fields = []
        case .keyed(let keyed): fields = keyed.fields
        case .text, .null, .list:
            throw FormEncodingFailure(
                name: "",
                reason: "the value must be keyed (a struct or a dictionary) to give parameter names, not "
                    + root.content.kind)
        }
        var flattener = FormFlattener(
            style: options.arrayEncoding ?? FormEncoder.ArrayStyle(arrays), nilValue: options.nilEncoding == .empty)
        for field in fields { try flattener.flatten(field.node, name: field.name) }
        let spelling = options.spelling
        return QueryItems(
            flattener.pairs.map {
                var item = QueryItems.Item($0.name, .string($0.value))
                item.spelling = spelling
                return item
            })
    }
}

/// Why a value could not be written as parameters: where (the parameter name, brackets and all)
/// and what was wrong.
struct FormEncodingFailure: Error, CustomStringConvertible {
    let name: String
    let reason: String

    var description: String { name.isEmpty ? reason : "`\(name)`: \(reason)" }
}

/// A value as it was encoded, before it is written as names: filled in place by the containers.
final class FormNode {
    enum Content {
        case unset
        case text(String)
        case null
        case keyed(FormKeyed)
        case list(FormList)

        /// What this is, for messages.
        var kind: String {
            switch self {
            case .unset: "nothing"
            case .text: "a single value"
            case .null: "nil"
            case .keyed: "a keyed value"
            case .list: "a list"
            }
        }
    }

    var content = Content.unset
}

/// A keyed value's fields in the order they were first encoded.
final class FormKeyed {
    private(set) var fields: [(name: String, node: FormNode)] = []
    private var indexes: [String: Int] = [:]

    /// The node of `name`: the one written before if there is one (encoding a key twice
    /// replaces its value, as `JSONEncoder` does), else a new one.
    func node(for name: String) -> FormNode {
        if let index = indexes[name] { return fields[index].node }
        let node = FormNode()
        indexes[name] = fields.count
        fields.append((name, node))
        return node
    }
}

/// A list's elements in order.
final class FormList {
    private(set) var nodes: [FormNode] = []

    func append() -> FormNode {
        let node = FormNode()
        nodes.append(node)
        return node
    }
}

/// The options and the first failure of one encoding, shared by its encoders and containers.
final class FormEncodingState {
    let options: FormEncoder
    /// The first failure found where nothing can throw (asking for a container).
    private(set) var failure: FormEncodingFailure?

    init(options: FormEncoder) { self.options = options }

    /// Encodes `value` into `node`: scalars and dictionaries here, anything else through its own
    /// `encode(to:)`.
    func encode<Value: Encodable>(_ value: Value, into node: FormNode, at path: [any CodingKey]) throws {
        if let text = try scalar(value, at: path) {
            node.content = .text(text)
        } else if let dictionary = value as? any FormSortedDictionary {
            // A Dictionary has no order of its own: written in the order of its keys.
            guard let keyed = keyed(node, at: path) else { return }
            for (key, element) in dictionary.sortedFields() {
                try encode(element, into: keyed.node(for: key), at: path + [FormKey(key)])
            }
        } else {
            try value.encode(to: FormNodeEncoder(node: node, state: self, codingPath: path))
        }
    }

    /// The text of a value written as one parameter value, or `nil` for one with fields.
    private func scalar<Value: Encodable>(
        _ value: Value, at path: [any CodingKey]
    ) throws(FormEncodingFailure)
        -> String?
    {
        switch value {
        case let text as String: return text
        case let flag as Bool:
            return options.boolEncoding == .numeric ? (flag ? "1" : "0") : (flag ? "true" : "false")
        case let number as Double: return try finite(number, number.isFinite, at: path)
        case let number as Float: return try finite(number, number.isFinite, at: path)
        case let number as any BinaryInteger: return String(describing: number)
        case let date as Date: return try text(of: date, at: path)
        case let data as Data: return data.base64EncodedString()
        case let url as URL: return url.absoluteString
        case let decimal as Decimal: return decimal.description
        default: return nil
        }
    }

    private func finite(
        _ number: some CustomStringConvertible, _ isFinite: Bool, at path: [any CodingKey]
    )
        throws(FormEncodingFailure) -> String
    {
        guard isFinite else { throw failure("\(number) is not a finite number", at: path) }
        return number.description
    }

    private func text(of date: Date, at path: [any CodingKey]) throws(FormEncodingFailure) -> String {
        // A formatter writes some text for any date; one that is not finite is a mistake.
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { throw failure("the date is not finite (\(seconds) s since 1970)", at: path) }
        switch options.dateEncoding {
        case .secondsSince1970: return try number(seconds, at: path)
        case .millisecondsSince1970: return try number(seconds * 1000, at: path)
        case .iso8601: return date.formatted(Date.ISO8601FormatStyle())
        case .formatted(let formatter): return formatter.string(from: date)
        }
    }

    /// A count of seconds or milliseconds: without a fraction when it has none.
    private func number(_ value: Double, at path: [any CodingKey]) throws(FormEncodingFailure) -> String {
        guard value.isFinite else { throw failure("the date is not finite (\(value) ms since 1970)", at: path) }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `node`'s keyed content, made if it has none; `nil` (and the failure recorded) when
    /// something else was written there.
    func keyed(_ node: FormNode, at path: [any CodingKey]) -> FormKeyed? {
        switch node.content {
        case .keyed(let keyed): return keyed
        case .unset:
            let keyed = FormKeyed()
            node.content = .keyed(keyed)
            return keyed
        case .text, .null, .list:
            record(failure("a keyed value is encoded where \(node.content.kind) already was", at: path))
            return nil
        }
    }

    /// `node`'s list, made if it has none; `nil` (and the failure recorded) when something else
    /// was written there.
    func list(_ node: FormNode, at path: [any CodingKey]) -> FormList? {
        switch node.content {
        case .list(let list): return list
        case .unset:
            let list = FormList()
            node.content = .list(list)
            return list
        case .text, .null, .keyed:
            record(failure("a list is encoded where \(node.content.kind) already was", at: path))
            return nil
        }
    }

    func record(_ failure: FormEncodingFailure) {
        if self.failure == nil { self.failure = failure }
    }

    /// A failure at `path`, named as the parameter would be (`items[0][price]`).
    func failure(_ reason: String, at path: [any CodingKey]) -> FormEncodingFailure {
        var name = ""
        for key in path {
            let text = self.name(of: key)
            name += name.isEmpty ? text : "[" + text + "]"
        }
        return FormEncodingFailure(name: name, reason: reason)
    }

    /// The parameter name of a coding key: converted as `keyEncoding` says, except the keys of
    /// dictionaries and the indexes of lists.
    func name(of key: any CodingKey) -> String {
        if key is FormKey || options.keyEncoding == .useDefaultKeys { return key.stringValue }
        return SnakeCase.convert(key.stringValue)
    }
}

/// A key this encoder makes: a dictionary's key or a list's index, written as it is.
struct FormKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = String(index)
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// A `Dictionary` whose keys can be sorted and written as names: encoded in the order of its keys.
protocol FormSortedDictionary {
    func sortedFields() -> [(String, any Encodable)]
}

extension Dictionary: FormSortedDictionary where Key: Comparable & CodingKeyRepresentable, Value: Encodable {
    func sortedFields() -> [(String, any Encodable)] {
        sorted { $0.key < $1.key }.map { ($0.key.codingKey.stringValue, $0.value) }
    }
}

extension FormEncoder.ArrayStyle {
    /// The style of a client's ``ArrayEncoding``.
    init(_ encoding: ArrayEncoding) {
        switch encoding {
        case .repeatedKey: self = .repeatedKey
        case .brackets: self = .brackets
        case .commaSeparated: self = .commaSeparated
        }
    }
}
