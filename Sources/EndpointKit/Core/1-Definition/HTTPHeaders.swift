/// An ordered collection of HTTP header fields with case-insensitive names.
///
/// Setting a field replaces every field with the same name (compared case-insensitively); the
/// position of the first one is kept. Literal syntax works:
///
/// ```swift
/// var headers: HTTPHeaders { ["Accept": "application/json", "X-Client": "ios"] }
/// ```
///
/// Names and values are checked when the request is built, again after interceptors adapted it,
/// and by the transport before it writes: a name that is not an RFC 9110 token fails the request
/// with ``RequestBuildError/invalidHeader(name:reason:)``, a value holding CR, LF or NUL with
/// ``RequestBuildError/controlCharacter(component:)``; nothing is sent.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    private(set) var fields: [Field]

    /// Creates an empty collection.
    package init() { fields = [] }

    /// No fields, made once: the default of every endpoint.
    public static let empty = HTTPHeaders()

    /// Creates a collection from fields, keeping their order; later duplicates replace earlier ones.
    package init(_ fields: [Field]) {
        self.fields = []
        for field in fields { self[field.name] = field.value }
    }

    /// Creates a collection from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }

    /// The value of the field named `name` (case-insensitive), or `nil`. Setting `nil` removes it.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            // Fields before the first match do not match, so `index` stays valid after removal.
            let index = fields.firstIndex { $0.name.caseInsensitiveEquals(name) }
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            guard let newValue else { return }
            let field = Field(name: name, value: newValue)
            if let index { fields.insert(field, at: index) } else { fields.append(field) }
        }
    }

    /// Returns these headers with every field of `other` set on top (other's values win).
    package func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var result = self
        for field in other.fields { result[field.name] = field.value }
        return result
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    package var isEmpty: Bool { fields.isEmpty }

    /// The fields as a dictionary (names as given).
    package var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields, one `Name: value` a line.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }
}

extension String {
    /// Whether the two are equal ignoring ASCII case, as field names compare (RFC 9110 §5.1);
    /// other bytes must match exactly. Allocates nothing.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native strings (nearly all) compare as two byte buffers; others byte by byte.
        let compared = utf8.withContiguousStorageIfAvailable { bytes in
            other.utf8.withContiguousStorageIfAvailable { otherBytes in
                var index = 0
                while index < bytes.count {
                    guard Self.sameIgnoringASCIICase(bytes[index], otherBytes[index]) else { return false }
                    index += 1
                }
                return true
            }
        }
        if let compared = compared ?? nil { return compared }
        return zip(utf8, other.utf8).allSatisfy(Self.sameIgnoringASCIICase)
    }

    /// Whether two bytes are equal, or the same ASCII letter in either case.
    @inline(__always)
    private static func sameIgnoringASCIICase(_ byte: UInt8, _ other: UInt8) -> Bool {
        guard byte != other else { return true }
        let lower = byte | 0x20
        return lower == other | 0x20 && lower >= 0x61 && lower <= 0x7A
    }
}
