extension YAMLParser {
    /// A core schema tag, or what another tag means here.
    enum Tag: Equatable {
        /// `!!str`, or the non-specific `!` (the scalar is a string).
        case string
        /// `!!int`.
        case integer
        /// `!!float`.
        case float
        /// `!!bool`.
        case bool
        /// `!!null`.
        case null
        /// `!!map`.
        case mapping
        /// `!!seq`.
        case sequence
        /// Any other tag: ignored, the node reads as if untagged.
        case other
    }

    /// A node's anchor and tag.
    struct Properties {
        /// The anchor's name.
        var anchor: String?
        /// The tag.
        var tag: Tag?

        /// Whether the node has an anchor or a tag.
        var isPresent: Bool { anchor != nil || tag != nil }
    }

    /// The anchor and tag at the read offset (in either order, each followed by blanks).
    mutating func properties() throws(ReadError) -> Properties {
        var properties = Properties()
        while current == UInt8(ascii: "&") || current == UInt8(ascii: "!") {
            let tokenStart = index
            if current == UInt8(ascii: "&") {
                guard properties.anchor == nil else { throw error("a node can have only one anchor") }
                index += 1
                let name = anchorName()
                guard !name.isEmpty else { throw error("an anchor needs a name", at: tokenStart) }
                properties.anchor = name
            } else {
                guard properties.tag == nil else { throw error("a node can have only one tag") }
                properties.tag = try tag()
            }
            guard isSeparator(current) || isFlowIndicator(current) else {
                throw error("unexpected \(SourceText.describe(current)) in a node's properties")
            }
            skipBlanks()
        }
        return properties
    }

    /// An anchor or alias name after `&` or `*`: up to a separator or a flow indicator.
    mutating func anchorName() -> String {
        let nameStart = index
        while !isSeparator(current) && !isFlowIndicator(current) { index += 1 }
        return String(decoding: bytes[nameStart..<index], as: UTF8.self)
    }

    /// A tag at `!`: `!`, `!!suffix`, `!suffix`, `!handle!suffix` or `!<verbatim>`.
    mutating func tag() throws(ReadError) -> Tag {
        let tagStart = index
        index += 1
        let name: String
        if current == UInt8(ascii: "<") {
            index += 1
            let uriStart = index
            while current != UInt8(ascii: ">") {
                guard !isSeparator(current) else { throw error("unterminated verbatim tag", at: tagStart) }
                index += 1
            }
            let uri = String(decoding: bytes[uriStart..<index], as: UTF8.self)
            index += 1
            let prefix = "tag:yaml.org,2002:"
            guard uri.hasPrefix(prefix) else { return .other }
            name = String(uri.dropFirst(prefix.count))
        } else {
            while !isSeparator(current) && !isFlowIndicator(current) { index += 1 }
            let token = bytes[tagStart..<index]
            if token.count == 1 { return .string }
            guard token.count > 2, token[tagStart + 1] == UInt8(ascii: "!") else { return .other }
            name = String(decoding: token.dropFirst(2), as: UTF8.self)
        }
        switch name {
        case "str": return .string
        case "int": return .integer
        case "float": return .float
        case "bool": return .bool
        case "null": return .null
        case "map": return .mapping
        case "seq": return .sequence
        default: return .other
        }
    }

    /// An alias at `*`: the anchored node, counted against the expansion limit.
    mutating func alias() throws(ReadError) -> Node {
        let aliasStart = index
        index += 1
        let name = anchorName()
        guard !name.isEmpty else { throw error("an alias needs a name", at: aliasStart) }
        guard let anchored = anchors[name] else { throw error("unknown alias *\(name)", at: aliasStart) }
        aliasExpansion += anchored.size
        nodeCount += anchored.size
        guard aliasExpansion <= YAMLReader.maximumAliasExpansion else {
            throw error("too many aliases expanded (over \(YAMLReader.maximumAliasExpansion) nodes)", at: aliasStart)
        }
        lastScalarText = anchored.text
        return anchored.node
    }

    /// Records `node` under its anchor, if it has one; returns it.
    mutating func remember(_ node: Node, _ properties: Properties, countBefore: Int) -> Node {
        if let anchor = properties.anchor {
            let text: String? =
                switch node {
                case .array, .object: nil
                default: lastScalarText
                }
            anchors[anchor] = Anchored(node: node, size: max(1, nodeCount - countBefore), text: text)
        }
        return node
    }

    /// A node without content (`key:` with nothing after it), resolved with its tag.
    mutating func emptyNode(_ properties: Properties, at offset: Int) throws(ReadError) -> Node {
        let countBefore = nodeCount
        let node = try scalar("", plain: true, properties, at: offset)
        return remember(node, properties, countBefore: countBefore)
    }

    /// The node a scalar's text resolves to: by its tag, else by the core schema when plain,
    /// else a string.
    mutating func scalar(
        _ text: String, plain: Bool, _ properties: Properties, at offset: Int
    ) throws(ReadError)
        -> Node
    {
        nodeCount += 1
        lastScalarText = text
        switch properties.tag {
        case nil, .other: return plain ? CoreSchema.resolve(text) : .string(text)
        case .string: return .string(text)
        case .integer:
            guard CoreSchema.isInteger(text) else {
                throw error("!!int value \"\(text)\" is not an integer", at: offset)
            }
            return .number(text)
        case .float:
            guard CoreSchema.isInteger(text) || CoreSchema.isFloat(text) else {
                throw error("!!float value \"\(text)\" is not a number", at: offset)
            }
            return .number(text)
        case .bool:
            guard case .bool(let value) = CoreSchema.resolve(text) else {
                throw error("!!bool value \"\(text)\" is not true or false", at: offset)
            }
            return .bool(value)
        case .null:
            guard CoreSchema.resolve(text) == .null else {
                throw error("!!null value \"\(text)\" is not null", at: offset)
            }
            return .null
        case .mapping:
            guard plain && text.isEmpty else { throw error("a !!map tag on a scalar", at: offset) }
            return .object([])
        case .sequence:
            guard plain && text.isEmpty else { throw error("a !!seq tag on a scalar", at: offset) }
            return .array([])
        }
    }

    /// Refuses a scalar tag on a collection, or the other collection's tag.
    func applyTag(_ properties: Properties, to node: Node, at offset: Int) throws(ReadError) {
        switch (node, properties.tag) {
        case (.array, .mapping): throw error("a !!map tag on a sequence", at: offset)
        case (.object, .sequence): throw error("a !!seq tag on a mapping", at: offset)
        case (.array, .string), (.array, .integer), (.array, .float), (.array, .bool), (.array, .null),
            (.object, .string), (.object, .integer), (.object, .float), (.object, .bool), (.object, .null):
            throw error("a scalar tag on a collection", at: offset)
        default: return
        }
    }

    /// The text of a mapping key read as a node: a scalar's text; a collection is an error.
    func keyText(of node: Node, at offset: Int) throws(ReadError) -> String {
        switch node {
        case .array, .object: throw error("a mapping key must be a scalar, not a collection", at: offset)
        default: return lastScalarText ?? ""
        }
    }
}

/// Members of a mapping being read, and the `<<` merge keys among them.
struct MappingBuilder {
    /// The mapping's own members, in order.
    private var own: [Node.Member] = []
    /// The merged members, each with how many own members preceded its `<<`.
    private var merged: [(position: Int, members: [Node.Member])] = []

    /// Adds a member; a merge key's value (a mapping or a sequence of mappings) is merged.
    mutating func add(key: String, isMerge: Bool, value: Node, parser: YAMLParser, at offset: Int) throws(ReadError) {
        guard isMerge else {
            own.append(Node.Member(key, value))
            return
        }
        var members: [Node.Member] = []
        switch value {
        case .object(let sourceMembers): members = sourceMembers
        case .array(let sources):
            for source in sources {
                guard case .object(let sourceMembers) = source else {
                    throw parser.error("a merge key (<<) needs a mapping or a sequence of mappings", at: offset)
                }
                members += sourceMembers
            }
        default: throw parser.error("a merge key (<<) needs a mapping or a sequence of mappings", at: offset)
        }
        merged.append((own.count, members))
    }

    /// The members: own members win over merged ones, earlier merged ones over later ones; a
    /// merged member stands where its `<<` was.
    func members() -> [Node.Member] {
        guard !merged.isEmpty else { return own }
        let ownKeys = Set(own.map(\.key))
        var added: Set<String> = []
        var result: [Node.Member] = []
        var next = 0
        for position in 0...own.count {
            while next < merged.count && merged[next].position == position {
                for member in merged[next].members where !ownKeys.contains(member.key) && !added.contains(member.key) {
                    added.insert(member.key)
                    result.append(member)
                }
                next += 1
            }
            if position < own.count { result.append(own[position]) }
        }
        return result
    }
}
