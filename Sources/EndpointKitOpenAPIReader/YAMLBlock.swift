extension YAMLParser {
    /// Where a block node begins, which decides what it may be.
    enum BlockMode {
        /// At the start of a document without `---`.
        case bare
        /// After `---` on its line.
        case document
        /// After an implicit key's `:`: a block collection must start on a later line, where a
        /// sequence may also be at the key's own indentation.
        case value
        /// After `- `, `? ` or an explicit key's `: `: a compact collection may start on the line.
        case compact
    }

    /// Counts one more enclosing collection, refusing nesting deeper than the limit.
    mutating func enter() throws(ReadError) {
        depth += 1
        guard depth <= YAMLReader.maximumDepth else {
            throw error("nesting deeper than \(YAMLReader.maximumDepth) collections")
        }
    }

    /// Whether a block sequence entry (`-` and a separator) begins at `offset`.
    func isSequenceEntry(at offset: Int) -> Bool {
        byte(offset) == UInt8(ascii: "-") && isSeparator(byte(offset + 1))
    }

    /// Whether the node that was to begin at the read offset is empty: the document or its
    /// parent ended first (content at or left of the parent's indentation `parent`).
    func endsBeforeContent(parent: Int, mode: BlockMode) -> Bool {
        if atEnd || isAnyDocumentMarker(at: index) { return true }
        let column = column(of: index)
        if column > parent { return false }
        return !(mode == .value && column == parent && isSequenceEntry(at: index))
    }

    /// A block node (or a flow node or scalar in block context) inside a collection at
    /// indentation `parent`.
    mutating func blockNode(parent: Int, mode: BlockMode) throws(ReadError) -> Node {
        var newLine = mode == .bare
        skipBlanks()
        if newLine || atEnd || isBreak(current) || current == UInt8(ascii: "#") {
            try skipToNextContent()
            newLine = true
            if endsBeforeContent(parent: parent, mode: mode) { return try emptyNode(Properties(), at: index) }
        }
        var blockAllowed = newLine || mode == .compact
        if blockAllowed && isImplicitKey(at: index) { return try blockMapping(column: column(of: index)) }
        let propertiesStart = index
        let properties = try self.properties()
        if properties.isPresent {
            skipBlanks()
            if atEnd || isBreak(current) || current == UInt8(ascii: "#") {
                try skipToNextContent()
                if endsBeforeContent(parent: parent, mode: mode) {
                    return try emptyNode(properties, at: propertiesStart)
                }
                blockAllowed = true
            } else {
                blockAllowed = false
            }
        }
        let countBefore = nodeCount
        let node = try blockContent(parent: parent, properties: properties, blockAllowed: blockAllowed)
        try applyTag(properties, to: node, at: propertiesStart)
        return remember(node, properties, countBefore: countBefore)
    }

    /// The content of a block node at the read offset, after its properties.
    private mutating func blockContent(
        parent: Int, properties: Properties, blockAllowed: Bool
    ) throws(ReadError) -> Node {
        let contentStart = index
        let next = byte(index + 1)
        switch current {
        case UInt8(ascii: "-") where isSeparator(next),
            UInt8(ascii: "?") where isSeparator(next):
            guard blockAllowed else { throw error("a block collection cannot start on this line") }
            return current == UInt8(ascii: "-")
                ? try blockSequence(column: column(of: index)) : try blockMapping(column: column(of: index))
        case _ where blockAllowed && properties.isPresent && isImplicitKey(at: index):
            return try blockMapping(column: column(of: index))
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            return try scalar(try blockScalar(parent: parent), plain: false, properties, at: contentStart)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let node = try flowCollection()
            try refuseCollectionKey(at: contentStart)
            return node
        case UInt8(ascii: "*"):
            guard !properties.isPresent else { throw error("an alias cannot have an anchor or a tag") }
            let node = try alias()
            try refuseMultiLineKey(from: contentStart)
            return node
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = current == UInt8(ascii: "\"") ? try doubleQuoted() : try singleQuoted()
            try refuseMultiLineKey(from: contentStart)
            return try scalar(text, plain: false, properties, at: contentStart)
        default:
            guard isPlainStart(flow: false) else {
                throw error("unexpected \(SourceText.describe(current)) at the start of a node")
            }
            return try scalar(plainScalar(parent: parent, flow: false), plain: true, properties, at: contentStart)
        }
    }

    /// Refuses a flow collection used as a block mapping key (`[a]: b`): keys are scalars.
    private mutating func refuseCollectionKey(at offset: Int) throws(ReadError) {
        let end = index
        skipBlanks()
        let isKey = current == UInt8(ascii: ":") && isSeparator(byte(index + 1))
        index = end
        if isKey { throw error("a mapping key must be a scalar, not a collection", at: offset) }
    }

    /// Refuses a scalar that spans lines and is followed by `:` (an implicit key is one line).
    private mutating func refuseMultiLineKey(from offset: Int) throws(ReadError) {
        let end = index
        skipBlanks()
        let isKey = current == UInt8(ascii: ":") && isSeparator(byte(index + 1))
        index = end
        if isKey { throw error("an implicit mapping key must be on one line", at: offset) }
    }

    /// A block sequence whose `-` indicators are at `column`.
    mutating func blockSequence(column: Int) throws(ReadError) -> Node {
        try enter()
        var elements: [Node] = []
        while true {
            index += 1
            elements.append(try blockNode(parent: column, mode: .compact))
            try finishLine()
            try skipToNextContent()
            if atEnd || isAnyDocumentMarker(at: index) { break }
            let next = self.column(of: index)
            if next < column || (next == column && !isSequenceEntry(at: index)) { break }
            guard next == column else { throw error("bad indentation of a sequence entry") }
        }
        depth -= 1
        nodeCount += 1
        lastScalarText = nil
        return .array(elements)
    }

    /// A block mapping whose keys are at `column`.
    mutating func blockMapping(column: Int) throws(ReadError) -> Node {
        try enter()
        var mapping = MappingBuilder()
        while true {
            let entryStart = index
            if current == UInt8(ascii: "?") && isSeparator(byte(index + 1)) {
                index += 1
                let keyNode = try blockNode(parent: column, mode: .compact)
                let key = try keyText(of: keyNode, at: entryStart)
                try finishLine()
                try skipToNextContent()
                var value = Node.null
                if !atEnd, !isAnyDocumentMarker(at: index), self.column(of: index) == column,
                    current == UInt8(ascii: ":"), isSeparator(byte(index + 1))
                {
                    index += 1
                    value = try blockNode(parent: column, mode: .compact)
                    try finishLine()
                    try skipToNextContent()
                }
                try mapping.add(key: key, isMerge: false, value: value, parser: self, at: entryStart)
            } else {
                let key = try implicitKey()
                let value = try blockNode(parent: column, mode: .value)
                try mapping.add(key: key.text, isMerge: key.isMerge, value: value, parser: self, at: entryStart)
                try finishLine()
                try skipToNextContent()
            }
            if atEnd || isAnyDocumentMarker(at: index) { break }
            let next = self.column(of: index)
            if next < column { break }
            guard next == column else { throw error("bad indentation of a mapping entry") }
        }
        depth -= 1
        nodeCount += 1
        lastScalarText = nil
        return .object(mapping.members())
    }

    /// An implicit key and its `:`: properties, then a one-line scalar or an alias.
    mutating func implicitKey() throws(ReadError) -> (text: String, isMerge: Bool) {
        let keyStart = index
        let properties = try self.properties()
        skipBlanks()
        let contentStart = index
        let text: String
        var plain = false
        var isAlias = false
        switch current {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            text = current == UInt8(ascii: "\"") ? try doubleQuoted() : try singleQuoted()
        case UInt8(ascii: "*"):
            guard !properties.isPresent else { throw error("an alias cannot have an anchor or a tag") }
            let keyNode = try alias()
            text = try keyText(of: keyNode, at: contentStart)
            isAlias = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            throw error("a mapping key must be a scalar, not a collection")
        case UInt8(ascii: ":") where isSeparator(byte(index + 1)):
            text = ""
            plain = true
        default:
            guard isPlainStart(flow: false) else {
                throw error("expected a mapping key, found \(SourceText.describe(current))")
            }
            text = plainKey()
            plain = true
        }
        if !isAlias {
            let countBefore = nodeCount
            let node = try scalar(text, plain: plain, properties, at: contentStart)
            _ = remember(node, properties, countBefore: countBefore)
        }
        skipBlanks()
        guard current == UInt8(ascii: ":"), isSeparator(byte(index + 1)) else {
            throw error(
                "expected ':' after the mapping key \"\(text)\" (started at column \(column(of: keyStart) + 1))")
        }
        index += 1
        return (text, plain && text == "<<" && properties.tag == nil)
    }

    /// Whether an implicit key (properties, a one-line scalar or alias, `:` and a separator)
    /// begins at `offset`, looking ahead without reading.
    func isImplicitKey(at offset: Int) -> Bool {
        var cursor = offset
        while byte(cursor) == UInt8(ascii: "&") || byte(cursor) == UInt8(ascii: "!") {
            while !isSeparator(byte(cursor)) { cursor += 1 }
            while isBlank(byte(cursor)) { cursor += 1 }
        }
        let first = byte(cursor)
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            cursor += 1
            while true {
                let byte = self.byte(cursor)
                if byte == 0 || isBreak(byte) { return false }
                cursor += 1
                if byte == first {
                    if first == UInt8(ascii: "'") && self.byte(cursor) == first {
                        cursor += 1
                        continue
                    }
                    break
                }
                if first == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") && !isBreak(self.byte(cursor)) {
                    cursor += 1
                }
            }
        case UInt8(ascii: "*"):
            while !isSeparator(byte(cursor)) { cursor += 1 }
        case UInt8(ascii: ":") where isSeparator(byte(cursor + 1)):
            return true
        default:
            guard isPlainStart(at: cursor, flow: false) else { return false }
            while true {
                let byte = self.byte(cursor)
                if byte == 0 || isBreak(byte) { return false }
                if byte == UInt8(ascii: ":") && isSeparator(self.byte(cursor + 1)) { return true }
                if isBlank(byte) && self.byte(cursor + 1) == UInt8(ascii: "#") { return false }
                cursor += 1
            }
        }
        while isBlank(byte(cursor)) { cursor += 1 }
        return byte(cursor) == UInt8(ascii: ":") && isSeparator(byte(cursor + 1))
    }
}
