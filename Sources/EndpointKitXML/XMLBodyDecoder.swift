import EndpointKit
import Foundation

/// Decodes `Decodable` models from XML, for endpoints that answer XML.
///
/// Properties map to attributes or child elements of the same name. Scalars are read from text
/// (`<age>42</age>` decodes as an `Int`). Arrays are read from repeated elements
/// (`<tag>a</tag><tag>b</tag>`) or from the children of a wrapper element
/// (`<tags><tag>a</tag><tag>b</tag></tags>`); one element is an array of one.
///
/// ```swift
/// struct Feed: Decodable { let title: String; let item: [Entry] }
/// let feed = try XMLBodyDecoder().decode(Feed.self, from: data)   // the root element is the model
/// ```
public struct XMLBodyDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a model from an XML document; the root element is the model.
    /// - Throws: ``XMLTreeError`` for malformed XML, `DecodingError` for a mismatch.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decode(type, from: try XMLTree.parse(data))
    }

    /// Decodes a model from a parsed element.
    public func decode<Value: Decodable>(_ type: Value.Type, from tree: XMLTree) throws -> Value {
        try Value(from: XMLNodeDecoder(values: [.element(tree)], codingPath: []))
    }
}

/// A node the decoder can stand on: an element, or the text of an attribute.
enum XMLNodeValue {
    case element(XMLTree)
    case text(String)

    var text: String {
        switch self {
        case .element(let element): return element.text
        case .text(let text): return text
        }
    }

    var isEmpty: Bool {
        switch self {
        case .element(let element): return element.isEmpty
        case .text(let text): return text.isEmpty
        }
    }
}

/// The `Decoder` over one or more XML nodes (several when a name repeats).
struct XMLNodeDecoder: Decoder {
    let values: [XMLNodeValue]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .element(let element)? = values.first else {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected an element, found text."))
        }
        return KeyedDecodingContainer(XMLKeyedContainer<Key>(element: element, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var items = values
        if values.count == 1, values[0].isEmpty { items = [] }  // <tags/> is an empty list
        // A single wrapper element whose children share one name: the children are the items.
        if values.count == 1, case .element(let wrapper) = values[0], wrapper.attributes.isEmpty,
            let first = wrapper.children.first, wrapper.children.allSatisfy({ $0.name == first.name })
        {
            items = wrapper.children.map(XMLNodeValue.element)
        }
        return XMLUnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        XMLSingleValueContainer(value: values.first, decoder: self)
    }
}

struct XMLKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let element: XMLTree
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        (Array(element.attributes.keys) + element.children.map(\.name)).compactMap { Key(stringValue: $0) }
    }

    private func values(for key: Key) -> [XMLNodeValue] {
        if let attribute = element.attributes[key.stringValue] { return [.text(attribute)] }
        return element.children(named: key.stringValue).map(XMLNodeValue.element)
    }

    func contains(_ key: Key) -> Bool { !values(for: key).isEmpty }

    func decodeNil(forKey key: Key) throws -> Bool {
        let found = values(for: key)
        return found.isEmpty || (found.count == 1 && found[0].isEmpty)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let found = values(for: key)
        guard !found.isEmpty else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No attribute or element '\(key.stringValue)'."))
        }
        return try T(from: XMLNodeDecoder(values: found, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try XMLNodeDecoder(values: values(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try XMLNodeDecoder(values: values(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { XMLNodeDecoder(values: [.element(element)], codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        XMLNodeDecoder(values: values(for: key), codingPath: codingPath + [key])
    }
}

struct XMLUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [XMLNodeValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [XMLNodeValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> XMLNodeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "No more elements."))
        }
        defer { currentIndex += 1 }
        return XMLNodeDecoder(values: [items[currentIndex]], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex].isEmpty else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: try next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct XMLSingleValueContainer: SingleValueDecodingContainer {
    let value: XMLNodeValue?
    let decoder: XMLNodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { value?.isEmpty ?? true }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "No value."))
        }
        let text = value.text
        if let string = text as? T { return string }
        if T.self == Bool.self {
            switch text.lowercased() {
            case "true", "1", "yes": return try cast(true)
            case "false", "0", "no": return try cast(false)
            default: break
            }
        } else if let scalar = T.self as? any LosslessStringConvertible.Type, let parsed = scalar.init(text) {
            return try cast(parsed)
        } else if case .element = value {
            return try T(from: decoder)
        }
        throw DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Cannot read \(T.self) from \"\(text)\"."))
    }

    private func cast<T>(_ value: Any) throws -> T {
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(
                T.self, .init(codingPath: codingPath, debugDescription: "Unexpected type."))
        }
        return typed
    }
}

/// The coding key of an array position.
struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = String(index)
    }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}
