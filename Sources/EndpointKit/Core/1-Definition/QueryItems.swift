/// An ordered list of name/value parameters for a query string or a form body.
///
/// Order is kept as written and names may repeat. Create it from a dictionary literal (order of
/// the literal is kept) or by appending:
///
/// ```swift
/// var query: QueryItems { ["page": 1, "size": 20, "tag": ["swift", "ios"]] }
/// var query: QueryItems { ["filter": ["status": "open"], "page": 2] }   // filter[status]=open&page=2
/// ```
public struct QueryItems: Sendable, Hashable, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, Sequence {
    /// One parameter.
    public struct Item: Sendable, Hashable {
        /// The parameter name (not yet percent-encoded).
        public var name: String
        /// The parameter value (not yet percent-encoded).
        public var value: QueryValue
        /// How the name and value are percent-encoded when not the standard way (an item a
        /// ``FormEncoder`` made with its own space or character options).
        var spelling: QuerySpelling?

        /// Creates a parameter.
        public init(_ name: String, _ value: QueryValue) {
            self.name = name
            self.value = value
        }
    }

    /// The parameters in order.
    package private(set) var items: [Item]

    /// No items, made once.
    static let empty = QueryItems()

    /// Creates an empty list.
    package init() { items = [] }

    /// Creates a list from items, keeping their order.
    public init(_ items: [Item]) { self.items = items }

    /// Creates a list from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        items = elements.map { Item($0.0, $0.1) }
    }

    /// Creates a list from an array literal of items (use this form for repeated names).
    public init(arrayLiteral elements: Item...) { items = elements }

    /// Appends a parameter (a repeated name is kept, not replaced).
    public mutating func append(_ name: String, _ value: QueryValue) { items.append(Item(name, value)) }

    /// Appends every parameter of `other` after these.
    public mutating func append(contentsOf other: QueryItems) { items.append(contentsOf: other.items) }

    /// Whether there are no parameters.
    package var isEmpty: Bool { items.isEmpty }

    /// Iterates over the parameters in order.
    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }

    /// Expands the items into name/value pairs (lists per `arrayEncoding`, dictionaries as
    /// `name[key]`, ``QueryValue/none`` dropped), not yet percent-encoded.
    @_spi(Internal) public func pairs(arrayEncoding: ArrayEncoding) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        result.reserveCapacity(items.count)
        for item in items { Self.expand(item.value, name: item.name, arrayEncoding: arrayEncoding, into: &result) }
        return result
    }

    private static func expand(
        _ value: QueryValue, name: String, arrayEncoding: ArrayEncoding,
        into result: inout [(name: String, value: String)]
    ) {
        switch value {
        case .none: return
        case .string(let value): result.append((name, value))
        case .array(let values):
            switch arrayEncoding {
            case .repeatedKey: result += values.map { (name, $0) }
            case .brackets: result += values.map { (name + "[]", $0) }
            case .commaSeparated: result.append((name, values.joined(separator: ",")))
            }
        case .dictionary(let nested):
            for item in nested.items {
                expand(item.value, name: name + "[" + item.name + "]", arrayEncoding: arrayEncoding, into: &result)
            }
        }
    }

    /// The percent-encoded `name=value&...` form (RFC 3986: only unreserved characters are left
    /// as they are, so `+`, `&` and `=` inside values survive). Brackets in names are encoded too,
    /// as browsers, PHP's `http_build_query` and Alamofire write them: `filter%5Bstatus%5D=open`,
    /// which servers decode to `filter[status]=open` before reading the brackets.
    ///
    /// An item a ``FormEncoder`` made is written with its spelling (`+` for a space, more
    /// characters kept as they are), the others with the rule above.
    package func percentEncoded(arrayEncoding: ArrayEncoding) -> String {
        guard items.contains(where: { $0.spelling != nil }) else {
            return pairs(arrayEncoding: arrayEncoding)
                .map {
                    PercentEncoding.encodeQueryComponent($0.name) + "=" + PercentEncoding.encodeQueryComponent($0.value)
                }
                .joined(separator: "&")
        }
        var parts: [String] = []
        var pairs: [(name: String, value: String)] = []
        for item in items {
            pairs.removeAll(keepingCapacity: true)
            Self.expand(item.value, name: item.name, arrayEncoding: arrayEncoding, into: &pairs)
            for pair in pairs {
                parts.append(
                    PercentEncoding.encodeQueryComponent(pair.name, spelling: item.spelling) + "="
                        + PercentEncoding.encodeQueryComponent(pair.value, spelling: item.spelling))
            }
        }
        return parts.joined(separator: "&")
    }
}
