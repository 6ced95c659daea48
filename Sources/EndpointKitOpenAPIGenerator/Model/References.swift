import EndpointKitOpenAPIReader

/// Follows `$ref`s inside one document.
struct References: Sendable {
    /// The document.
    let root: Node

    /// The value at `pointer` (array indexes are decimal tokens); `nil` when there is none.
    func node(at pointer: JSONPointer) -> Node? {
        var current = root
        for token in pointer.tokens {
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// The target of a `$ref` string, or why there is none.
    func target(of reference: String, at pointer: JSONPointer) throws(Unsupported) -> JSONPointer {
        guard let target = JSONPointer(reference: reference) else {
            throw Unsupported(pointer, "the reference \(reference) is not inside this document; it is not supported")
        }
        return target
    }

    /// `node` itself, or the value its `$ref` chain ends at, with where that is. A chain that
    /// leaves the document, points at nothing or loops is an error.
    func resolve(_ node: Node, at pointer: JSONPointer) throws(Unsupported) -> (node: Node, pointer: JSONPointer) {
        var current = (node: node, pointer: pointer)
        var seen: Set<JSONPointer> = []
        while let reference = current.node["$ref"]?.string {
            let target = try target(of: reference, at: current.pointer)
            guard seen.insert(target).inserted else {
                throw Unsupported(pointer, "the reference \(reference) refers back to itself")
            }
            guard let next = self.node(at: target) else {
                throw Unsupported(current.pointer, "the reference \(reference) points at nothing in the document")
            }
            current = (next, target)
        }
        return current
    }

    /// The component schema name a `$ref` names (`#/components/schemas/Pet` → `Pet`), if it does.
    static func componentSchemaName(_ pointer: JSONPointer) -> String? {
        let tokens = pointer.tokens
        guard tokens.count == 3, tokens[0] == "components", tokens[1] == "schemas" else { return nil }
        return tokens[2]
    }
}

extension Node {
    /// A boolean member (`true` only when the document says `true`).
    func flag(_ key: String) -> Bool {
        if case .bool(let value)? = self[key] { return value }
        return false
    }

    /// A string member, with empty text read as none.
    func text(_ key: String) -> String? {
        guard let value = self[key]?.string, !value.isEmpty else { return nil }
        return value
    }
}
