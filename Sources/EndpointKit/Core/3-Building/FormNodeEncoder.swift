import Foundation

/// The `Encoder` a value's `encode(to:)` writes into: one ``FormNode``, filled by the containers
/// below. Nothing here stops the process: a value written where another already was is a
/// ``FormEncodingFailure``, thrown where the protocol can throw and recorded where it cannot.
struct FormNodeEncoder: Encoder {
    let node: FormNode
    let state: FormEncodingState
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            FormKeyedContainer<Key>(
                keyed: state.keyed(node, at: codingPath) ?? FormKeyed(), state: state, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(list: state.list(node, at: codingPath) ?? FormList(), state: state, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(node: node, state: state, codingPath: codingPath)
    }
}

/// A struct's or dictionary's fields. Every `encodeIfPresent` writes a `nil` as `encodeNil` does,
/// so the encoder's `nilEncoding` decides (the default implementations leave the key out).
struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let keyed: FormKeyed
    let state: FormEncodingState
    let codingPath: [any CodingKey]

    private func node(for key: Key) -> FormNode { keyed.node(for: state.name(of: key)) }

    mutating func encodeNil(forKey key: Key) throws { node(for: key).content = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let node = node(for: key)
        node.content = .unset  // a key encoded twice keeps its last value
        try state.encode(value, into: node, at: codingPath + [key])
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try encodeNil(forKey: key) }
        try encode(value, forKey: key)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    /// A scalar, through the generic path above.
    private mutating func put<T: Encodable>(_ value: T, _ key: Key) throws { try encode(value, forKey: key) }

    /// A scalar or `nil`, through the generic path above.
    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        try encodeIfPresent(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [key]
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(
                keyed: state.keyed(node(for: key), at: path) ?? FormKeyed(), state: state, codingPath: path))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let path = codingPath + [key]
        return FormUnkeyedContainer(
            list: state.list(node(for: key), at: path) ?? FormList(), state: state, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let key = FormKey("super")
        return FormNodeEncoder(node: keyed.node(for: key.stringValue), state: state, codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FormNodeEncoder(node: node(for: key), state: state, codingPath: codingPath + [key])
    }
}

/// A list's elements, each a node of its own.
struct FormUnkeyedContainer: UnkeyedEncodingContainer, FormScalarForwarding {
    let list: FormList
    let state: FormEncodingState
    let codingPath: [any CodingKey]
    var count: Int { list.nodes.count }

    private var nextPath: [any CodingKey] { codingPath + [FormKey(index: list.nodes.count)] }

    mutating func encodeNil() throws { list.append().content = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try state.encode(value, into: list.append(), at: path)
    }

    /// A scalar, through the generic path above (``FormScalarForwarding``).
    mutating func put<T: Encodable>(_ value: T) throws { try encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = nextPath
        return KeyedEncodingContainer(
            FormKeyedContainer<NestedKey>(
                keyed: state.keyed(list.append(), at: path) ?? FormKeyed(), state: state, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return FormUnkeyedContainer(
            list: state.list(list.append(), at: path) ?? FormList(), state: state, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return FormNodeEncoder(node: list.append(), state: state, codingPath: path)
    }
}

/// One value in place of its encoder's node (a wrapper type, a `RawRepresentable` enum).
struct FormSingleValueContainer: SingleValueEncodingContainer, FormScalarForwarding {
    let node: FormNode
    let state: FormEncodingState
    let codingPath: [any CodingKey]

    /// Only one value may be encoded here.
    private func checkUnset() throws {
        guard case .unset = node.content else {
            throw state.failure("a value is encoded where \(node.content.kind) already was", at: codingPath)
        }
    }

    mutating func encodeNil() throws {
        try checkUnset()
        node.content = .null
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try checkUnset()
        try state.encode(value, into: node, at: codingPath)
    }

    /// A scalar, through the generic path above (``FormScalarForwarding``).
    mutating func put<T: Encodable>(_ value: T) throws { try encode(value) }
}

/// The unkeyed and single-value containers write every scalar as any other value: the scalar
/// overloads both protocols require forward to the container's generic `encode`, here once.
protocol FormScalarForwarding {
    /// Encodes `value` through the container's generic path.
    mutating func put<T: Encodable>(_ value: T) throws
}

extension FormScalarForwarding {
    mutating func encode(_ value: Bool) throws { try put(value) }
    mutating func encode(_ value: String) throws { try put(value) }
    mutating func encode(_ value: Double) throws { try put(value) }
    mutating func encode(_ value: Float) throws { try put(value) }
    mutating func encode(_ value: Int) throws { try put(value) }
    mutating func encode(_ value: Int8) throws { try put(value) }
    mutating func encode(_ value: Int16) throws { try put(value) }
    mutating func encode(_ value: Int32) throws { try put(value) }
    mutating func encode(_ value: Int64) throws { try put(value) }
    mutating func encode(_ value: UInt) throws { try put(value) }
    mutating func encode(_ value: UInt8) throws { try put(value) }
    mutating func encode(_ value: UInt16) throws { try put(value) }
    mutating func encode(_ value: UInt32) throws { try put(value) }
    mutating func encode(_ value: UInt64) throws { try put(value) }
}
