/// A document read from JSON or YAML: the value tree the OpenAPI generator walks.
///
/// Scalars keep what the document wrote: a number is its literal (`1.8e19` or
/// `9223372036854775807` is read, never refused for not fitting a Swift type), and mappings keep
/// their members in document order so that what is generated from them is deterministic.
package indirect enum Node: Sendable, Hashable {
    /// `null`, `~` or an empty YAML value.
    case null
    /// `true` or `false` (YAML 1.2's core schema also reads `True` and `TRUE`).
    case bool(Bool)
    /// A number as written: JSON's number grammar, or a plain YAML scalar that the core schema
    /// resolves to an integer (decimal, `0o`, `0x`) or a float (`.inf`, `.nan` included).
    case number(String)
    /// A string: quoted, block or a plain scalar that is no other type.
    case string(String)
    /// A sequence, in order.
    case array([Node])
    /// A mapping, its members in document order. Keys are their scalar's text (`200:` is "200").
    case object([Member])

    /// One member of a mapping.
    package struct Member: Sendable, Hashable {
        /// The key's text.
        package var key: String
        /// The value.
        package var value: Node

        /// Creates a member.
        package init(_ key: String, _ value: Node) {
            self.key = key
            self.value = value
        }
    }

    /// The member named `key` of a mapping (the first, when a document repeats a key); `nil` for
    /// other values.
    package subscript(key: String) -> Node? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string of a `.string`; `nil` for other values.
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members of a mapping; `nil` for other values.
    package var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of a sequence; `nil` for other values.
    package var elements: [Node]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

/// Why a document could not be read, with where.
package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    package var message: String
    /// The 1-based line of the problem.
    package var line: Int
    /// The 1-based column of the problem.
    package var column: Int

    /// Creates an error.
    package init(_ message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line:column: message`.
    package var description: String { "\(line):\(column): \(message)" }
}
