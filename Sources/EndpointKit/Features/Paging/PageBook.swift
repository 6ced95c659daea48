/// What a ``Paginator`` has loaded and which page comes next. Plain state, no I/O.
///
/// The end is reached, and ``next`` becomes `nil`, when any of these says so: the page info's
/// `hasMore`; the page count (`totalPages`) or item count (`totalCount`) being reached; a cursor
/// API without a next cursor, or with one it has already used (a server repeating a cursor would
/// otherwise loop forever); without any page information, a page shorter than its size; an empty
/// page. A page beyond the end (empty, or an earlier page number than asked for, as servers that
/// clamp the page number answer) is not recorded.
struct PageBook<Element: Sendable>: Sendable {
    let first: PagePosition
    private(set) var pages: [Page<Element>] = []
    private(set) var items: [Element] = []
    /// The position of the next page, or `nil` at the end.
    private(set) var next: PagePosition?
    private var usedCursors: Set<String> = []

    init(first: PagePosition) {
        self.first = first
        next = first
    }

    var isEmpty: Bool { pages.isEmpty }
    var hasMore: Bool { next != nil }

    /// The total number of items: from the page info, or the items loaded once at the end.
    var totalCount: Int? { pages.last?.info?.totalCount ?? (hasMore ? nil : items.count) }

    /// The number of pages: from the page info, from the total and the page size, or the pages
    /// loaded once at the end.
    var maxPage: Int? {
        let info = pages.last?.info
        if let pages = info?.totalPages { return pages }
        if let total = info?.totalCount, first.size > 0 { return (total + first.size - 1) / first.size }
        return hasMore || pages.isEmpty ? nil : pages.count
    }

    /// Records a page loaded at `position`. Returns `nil`, and ends the book, for a page beyond the end.
    mutating func record(
        _ elements: [Element], info: PageInfo?, at position: PagePosition, metadata: ResponseMetadata
    ) -> Page<Element>? {
        if !pages.isEmpty, isBeyondTheEnd(elements, info: info, position: position) {
            next = nil
            return nil
        }
        let page = Page(number: pages.count + 1, position: position, items: elements, info: info, metadata: metadata)
        pages.append(page)
        items += elements
        next = following(page)
        return page
    }

    private func isBeyondTheEnd(_ elements: [Element], info: PageInfo?, position: PagePosition) -> Bool {
        if elements.isEmpty { return true }
        if case .number(let asked, _) = position, let answered = info?.page, answered < asked { return true }
        return false
    }

    private mutating func following(_ page: Page<Element>) -> PagePosition? {
        let info = page.info
        let count = page.items.count
        if case .cursor(let cursor?, _) = page.position { usedCursors.insert(cursor) }
        guard count > 0 else { return nil }
        if let total = info?.totalPages, pages.count >= total { return nil }
        if let total = info?.totalCount, items.count >= total { return nil }
        let next: PagePosition
        switch page.position {
        case .number(let number, let size): next = .number(number + 1, size: size)
        case .offset(let offset, let limit): next = .offset(offset + count, limit: limit)
        case .cursor(_, let limit):
            guard let cursor = info?.nextCursor, !cursor.isEmpty, !usedCursors.contains(cursor) else { return nil }
            next = .cursor(cursor, limit: limit)
        }
        if let hasMore = info?.hasMore { return hasMore ? next : nil }
        if info?.totalPages != nil || info?.totalCount != nil { return next }
        if case .cursor = page.position { return next }
        return count >= page.position.size ? next : nil
    }
}
