import XCTest

@testable import EndpointKitOpenAPIReader

/// A string node.
func str(_ text: String) -> Node { .string(text) }

/// A number node.
func num(_ literal: String) -> Node { .number(literal) }

/// A mapping node, members in the literal's order.
func map(_ pairs: KeyValuePairs<String, Node>) -> Node { .object(pairs.map { Node.Member($0.key, $0.value) }) }

/// A sequence node.
func seq(_ elements: Node...) -> Node { .array(elements) }

/// Reads YAML `text`, failing the test on an error.
func readYAML(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Node? {
    do {
        return try YAMLReader.read(text)
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
        return nil
    }
}

/// The error reading YAML `text` gives, failing the test when it reads.
func yamlError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ReadError? {
    do {
        let node = try YAMLReader.read(text)
        XCTFail("read \(node) instead of failing", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
