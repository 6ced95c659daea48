/// Which page a paged request asks for, in one of the three common styles.
///
/// The position a ``PagedRequest`` starts with also chooses the style the ``Paginator`` keeps:
///
/// ```swift
/// var page: PagePosition = .number(1, size: 20)     // ?page=1&pageSize=20, then page=2...
/// var page: PagePosition = .offset(0, limit: 20)    // ?offset=0&limit=20, then offset=20...
/// var page: PagePosition = .cursor(nil, limit: 20)  // ?limit=20, then cursor=<next>&limit=20...
/// ```
public enum PagePosition: Sendable, Hashable {
    /// A page number (the first page is the number you start with, usually 1 or 0) and a page size.
    case number(Int, size: Int)
    /// The number of items to skip and how many to return.
    case offset(Int, limit: Int)
    /// An opaque cursor from the previous page (`nil` for the first page) and how many to return.
    case cursor(String?, limit: Int)

    /// The number of items asked for.
    public var size: Int {
        switch self {
        case .number(_, let size), .offset(_, let size), .cursor(_, let size): return size
        }
    }

    /// The position as query parameters, with the names your API uses. A `nil` cursor is left out.
    /// - Parameters:
    ///   - number: The page number's name; `"page"` by default.
    ///   - size: The page size's name; `"pageSize"` by default.
    ///   - offset: The offset's name; `"offset"` by default.
    ///   - limit: The limit's name, for offsets and cursors; `"limit"` by default.
    ///   - cursor: The cursor's name; `"cursor"` by default.
    /// - Returns: The parameters, for ``RequestParameters/query(_:)`` or to append to others.
    public func queryItems(
        number: String = "page", size: String = "pageSize", offset: String = "offset", limit: String = "limit",
        cursor: String = "cursor"
    ) -> QueryItems {
        switch self {
        case .number(let value, let count): return [number: QueryValue(value), size: QueryValue(count)]
        case .offset(let value, let count): return [offset: QueryValue(value), limit: QueryValue(count)]
        case .cursor(let value, let count):
            var items: QueryItems = [limit: QueryValue(count)]
            if let value { items.append(cursor, .string(value)) }
            return items
        }
    }
}
