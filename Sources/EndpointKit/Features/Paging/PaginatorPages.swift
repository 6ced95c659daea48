/// A ``Paginator``'s pages as an async sequence: the pages already loaded, then the following
/// ones, loaded as the sequence is iterated, until the end.
///
/// ```swift
/// for try await page in paginator.pages { render(page.items) }
/// ```
public struct PaginatorPages<Request: PagedRequest>: AsyncSequence, Sendable {
    /// A page.
    public typealias Element = Page<Request.Element>

    let paginator: Paginator<Request>

    /// Creates an iterator that starts at the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(paginator: paginator) }

    /// Walks the pages in order, loading the next one when needed.
    public struct Iterator: AsyncIteratorProtocol {
        let paginator: Paginator<Request>
        var index = 0

        /// The next page, or `nil` at the end. Cancelling the calling Task cancels the page load
        /// in flight.
        /// - Throws: The ``ServerFailure`` or ``TransportError`` of a load that failed.
        public mutating func next() async throws -> Page<Request.Element>? {
            let (paginator, index) = (paginator, index)
            let page = try await withTaskCancellationHandler {
                try await paginator.page(at: index)
            } onCancel: {
                Task { await paginator.cancel() }
            }
            guard let page else { return nil }
            self.index += 1
            return page
        }
    }
}
