/// One page loaded by a ``Paginator``.
public struct Page<Element: Sendable>: Sendable {
    /// The page's place among the pages loaded since the first one: 1, 2, 3...
    public let number: Int
    /// The position the page was asked for.
    public let position: PagePosition
    /// The page's items, in order.
    public let items: [Element]
    /// The paging information the page came with, from the response or its envelope.
    public let info: PageInfo?
    /// The response.
    public let metadata: ResponseMetadata

    /// Creates a page.
    package init(number: Int, position: PagePosition, items: [Element], info: PageInfo?, metadata: ResponseMetadata) {
        self.number = number
        self.position = position
        self.items = items
        self.info = info
        self.metadata = metadata
    }
}
