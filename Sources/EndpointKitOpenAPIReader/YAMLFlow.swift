extension YAMLParser {
    /// Skips blanks, line breaks and comments inside a flow collection.
    mutating func skipFlowSpace() throws(ReadError) {
        while index < bytes.count {
            let byte = bytes[index]
            if isBlank(byte) {
                index += 1
            } else if isBreak(byte) {
                index = afterBreak(index)
                if isAnyDocumentMarker(at: index) { throw error("a document marker inside a flow collection") }
            } else if byte == UInt8(ascii: "#") && (index == start || isSeparator(bytes[index - 1])) {
                skipRestOfLine()
            } else {
                return
            }
        }
    }

    /// Whether a `:` at the read offset is a mapping value indicator in flow context: followed
    /// by a separator or a flow indicator, or right after a quoted or flow node (`"a":b`).
    func isFlowValueIndicator(afterJSONLikeNode: Bool) -> Bool {
        guard current == UInt8(ascii: ":") else { return false }
        let next = byte(index + 1)
        return afterJSONLikeNode || isSeparator(next) || isFlowIndicator(next)
    }

    /// A flow sequence or mapping at `[` or `{`.
    mutating func flowCollection() throws(ReadError) -> Node {
        try enter()
        let open = index
        let isSequence = current == UInt8(ascii: "[")
        let close = isSequence ? UInt8(ascii: "]") : UInt8(ascii: "}")
        index += 1
        var elements: [Node] = []
        var mapping = MappingBuilder()
        while true {
            try skipFlowSpace()
            if atEnd { throw error("unterminated flow \(isSequence ? "sequence" : "mapping")", at: open) }
            if current == close { break }
            let entryStart = index
            switch try flowEntry(inSequence: isSequence) {
            case .node(let node): elements.append(node)
            case .pair(let key, let isMerge, let value) where isSequence:
                var single = MappingBuilder()
                try single.add(key: key, isMerge: isMerge, value: value, parser: self, at: entryStart)
                nodeCount += 1
                elements.append(.object(single.members()))
            case .pair(let key, let isMerge, let value):
                try mapping.add(key: key, isMerge: isMerge, value: value, parser: self, at: entryStart)
            }
            try skipFlowSpace()
            if atEnd { throw error("unterminated flow \(isSequence ? "sequence" : "mapping")", at: open) }
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current != close {
                let found = atEnd ? "the end of the document" : SourceText.describe(current)
                throw error(
                    "expected ',' or '\(Character(Unicode.Scalar(close)))' in a flow collection, found \(found)")
            }
        }
        index += 1
        depth -= 1
        nodeCount += 1
        lastScalarText = nil
        return isSequence ? .array(elements) : .object(mapping.members())
    }

    /// An entry of a flow collection.
    enum FlowEntry {
        /// A key and its value (`isMerge` for the `<<` merge key).
        case pair(key: String, isMerge: Bool, value: Node)
        /// A single node of a sequence.
        case node(Node)
    }

    /// One entry of a flow collection: a key-value pair, or (in a sequence) a single node.
    private mutating func flowEntry(inSequence: Bool) throws(ReadError) -> FlowEntry {
        let entryStart = index
        var explicit = false
        if current == UInt8(ascii: "?") && (isSeparator(byte(index + 1)) || isFlowIndicator(byte(index + 1))) {
            explicit = true
            index += 1
            try skipFlowSpace()
        }
        var key = ""
        var isMerge = false
        var jsonLike = false
        if !isFlowValueIndicator(afterJSONLikeNode: false) && !(current == UInt8(ascii: ",") || isFlowEnd()) {
            let first = current
            let node = try flowNode()
            jsonLike =
                first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == UInt8(ascii: "[")
                || first == UInt8(ascii: "{")
            try skipFlowSpace()
            if inSequence && !explicit && !isFlowValueIndicator(afterJSONLikeNode: jsonLike) {
                return .node(node)
            }
            key = try keyText(of: node, at: entryStart)
            isMerge = key == "<<" && first == UInt8(ascii: "<")
        } else if inSequence && !explicit && !isFlowValueIndicator(afterJSONLikeNode: false) {
            throw error("expected a node in a flow sequence, found \(SourceText.describe(current))")
        }
        guard isFlowValueIndicator(afterJSONLikeNode: jsonLike) else {
            nodeCount += 1
            return .pair(key: key, isMerge: isMerge, value: .null)
        }
        index += 1
        try skipFlowSpace()
        if current == UInt8(ascii: ",") || isFlowEnd() {
            nodeCount += 1
            return .pair(key: key, isMerge: isMerge, value: .null)
        }
        return .pair(key: key, isMerge: isMerge, value: try flowNode())
    }

    /// Whether the read offset is at `]` or `}`.
    private func isFlowEnd() -> Bool { current == UInt8(ascii: "]") || current == UInt8(ascii: "}") }

    /// A node inside a flow collection.
    mutating func flowNode() throws(ReadError) -> Node {
        let propertiesStart = index
        let properties = try self.properties()
        if properties.isPresent { try skipFlowSpace() }
        let countBefore = nodeCount
        let contentStart = index
        let node: Node
        switch current {
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            node = try flowCollection()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = current == UInt8(ascii: "\"") ? try doubleQuoted() : try singleQuoted()
            node = try scalar(text, plain: false, properties, at: contentStart)
        case UInt8(ascii: "*"):
            guard !properties.isPresent else { throw error("an alias cannot have an anchor or a tag") }
            return try alias()
        case _
        where properties.isPresent
            && (current == UInt8(ascii: ",") || isFlowEnd() || isFlowValueIndicator(afterJSONLikeNode: false)):
            node = try scalar("", plain: true, properties, at: propertiesStart)
        default:
            guard isPlainStart(flow: true) else {
                let found = atEnd ? "the end of the document" : SourceText.describe(current)
                throw error("expected a node in a flow collection, found \(found)")
            }
            node = try scalar(plainScalar(parent: -1, flow: true), plain: true, properties, at: contentStart)
        }
        try applyTag(properties, to: node, at: propertiesStart)
        return remember(node, properties, countBefore: countBefore)
    }
}
