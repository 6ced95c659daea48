/// Paging information carried by a response envelope, such as
/// `"page": {"totalRows": 95, "hasMore": true}`.
///
/// Common spellings are accepted and numbers may arrive as strings: `totalRows`/`total`/
/// `totalCount`, `hasMore`/`has_more`, `page`/`pageNum`/`currentPage`, `pageSize`/`size`,
/// `totalPages`/`pages`, `nextCursor`/`cursor`/`next`.
///
/// Older code's names, and where they land:
///
/// | Server field (or older property) | `PageInfo` |
/// |---|---|
/// | `totalRows`, `total`, `totalCount`, `total_count` | ``totalCount`` |
/// | `hasMore`, `has_more`, `hasNext` (`true`, `1`, `"true"`) | ``hasMore`` |
/// | `page`, `pageNo`, `currentPage` (`requestCurrentPage`) | ``page`` |
/// | `pageSize`, `size`, `per_page` | ``pageSize`` |
/// | `totalPages`, `pages` (`requestMaxPage`) | ``totalPages`` |
/// | `nextCursor`, `cursor`, `next` | ``nextCursor`` |
///
/// `.statusResult()` reads it from `page`; a paged endpoint can build one in its own `pageInfo(in:)`:
///
/// ```swift
/// // {"status":200,"page":{"totalRows":95,"hasMore":true,"pageNo":"2"},"result":[...]}
/// if let page = metadata.envelope?.page {
///     print(page.totalCount ?? 0, page.hasMore ?? false, page.page ?? 1)   // 95 true 2
/// }
/// ```
public struct PageInfo: Sendable, Hashable, Decodable {
    /// The total number of items, if known.
    public var totalCount: Int?
    /// Whether more items follow, if the server says.
    public var hasMore: Bool?
    /// The current page number, if given.
    public var page: Int?
    /// The page size, if given.
    public var pageSize: Int?
    /// The number of pages, if given.
    public var totalPages: Int?
    /// The cursor for the next page, if the API is cursor-based.
    public var nextCursor: String?

    /// Creates page information.
    public init(
        totalCount: Int? = nil, hasMore: Bool? = nil, page: Int? = nil, pageSize: Int? = nil, totalPages: Int? = nil,
        nextCursor: String? = nil
    ) {
        self.totalCount = totalCount
        self.hasMore = hasMore
        self.page = page
        self.pageSize = pageSize
        self.totalPages = totalPages
        self.nextCursor = nextCursor
    }

    /// Decodes from an object, accepting the spellings listed on the type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        func scalar(_ keys: String...) -> EnvelopeScalar? {
            for key in keys {
                if let value = try? container.decodeIfPresent(EnvelopeScalar.self, forKey: AnyCodingKey(key)) {
                    return value
                }
            }
            return nil
        }
        totalCount = scalar("totalRows", "total", "totalCount", "total_count")?.intValue
        page = scalar("page", "pageNum", "pageNo", "currentPage", "current_page")?.intValue
        pageSize = scalar("pageSize", "page_size", "size", "perPage", "per_page")?.intValue
        totalPages = scalar("totalPages", "total_pages", "pages")?.intValue
        nextCursor = scalar("nextCursor", "next_cursor", "cursor", "next")?.description
        switch scalar("hasMore", "has_more", "hasNext", "has_next") {
        case .bool(let value)?: hasMore = value
        case let value?: hasMore = value.intValue.map { $0 != 0 } ?? (value.description == "true")
        case nil: hasMore = nil
        }
    }
}
