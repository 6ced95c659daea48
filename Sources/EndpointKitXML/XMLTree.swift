import EndpointKit
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element parsed from a response body: name, attributes, child elements and text.
///
/// ```swift
/// let tree = try XMLTree.parse(data)
/// tree.children(named: "item").map(\.text)
/// ```
public struct XMLTree: Sendable, Hashable {
    /// The element name (with any namespace prefix).
    public var name: String
    /// The attributes.
    public var attributes: [String: String]
    /// The child elements, in document order.
    public var children: [XMLTree]
    /// The element's own character data, trimmed of surrounding whitespace.
    public var text: String

    /// Creates an element.
    public init(name: String, attributes: [String: String] = [:], children: [XMLTree] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
    }

    /// The children with this name, in order.
    public func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The first child with this name.
    public func child(named name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Whether the element has no attributes, no children and no text.
    public var isEmpty: Bool { attributes.isEmpty && children.isEmpty && text.isEmpty }

    /// The element as JSON-like values: an element with only text is its text; otherwise an
    /// object of attributes, children (repeated names become arrays) and `"text"` if any.
    public var jsonValue: JSONValue {
        if attributes.isEmpty && children.isEmpty { return .string(text) }
        var object = attributes.mapValues { JSONValue.string($0) }
        for name in Set(children.map(\.name)) {
            let values = children(named: name).map(\.jsonValue)
            object[name] = values.count == 1 ? values[0] : .array(values)
        }
        if !text.isEmpty { object["text"] = .string(text) }
        return .object(object)
    }

    /// The element as a Foundation dictionary (`[String: Any]` with `String`, arrays and nested
    /// dictionaries), keyed by the root element's name.
    public var dictionary: [String: Any] { [name: Self.foundationObject(jsonValue)] }

    private static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .object(let object): return object.mapValues(foundationObject)
        case .array(let array): return array.map(foundationObject)
        case .string(let text): return text
        default: return "\(value)"
        }
    }

    /// Parses an XML document into its root element.
    /// - Throws: ``XMLTreeError`` when the document is not well-formed.
    public static func parse(_ data: Data) throws(XMLTreeError) -> XMLTree {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.root else {
            let line = parser.lineNumber
            throw .malformed(
                line: line, reason: parser.parserError.map { "\($0.localizedDescription)" } ?? "no root element")
        }
        return root
    }
}

/// Why an XML body could not be parsed.
public enum XMLTreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is not well-formed.
    case malformed(line: Int, reason: String)

    /// The line and the parser's reason.
    public var description: String {
        switch self {
        case .malformed(let line, let reason): return "Malformed XML at line \(line): \(reason)"
        }
    }
}

/// Collects `XMLParser` events into an ``XMLTree``.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLTree] = []
    private var texts: [String] = []
    var root: XMLTree?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        stack.append(XMLTree(name: elementName, attributes: attributes))
        texts.append("")
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !texts.isEmpty else { return }
        texts[texts.count - 1] += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard var element = stack.popLast(), let text = texts.popLast() else { return }
        element.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
