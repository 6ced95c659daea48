/// Loads a ``PagedRequest`` page by page and keeps what it loaded: the pages, the accumulated
/// items, and where the list stands (current page, max page, total, has-more).
///
/// ```swift
/// let feed = Paginator(client: client, request: ListPosts())
/// _ = await feed.loadFirstPage()
/// if await feed.hasMore { _ = await feed.loadNextPage() }    // e.g. when the list scrolls to its end
/// _ = await feed.refresh()                                      // pull to refresh
///
/// for try await page in feed.pages { show(page.items) }         // every page, loading as needed
/// ```
///
/// The paginator is an actor, so any task may call it. One load runs at a time: a call made while
/// a page is loading waits for that load and returns its result instead of asking for the page
/// again (use ``items`` or ``Page/number`` rather than appending every returned page). It stops
/// at the end and never asks for a page beyond it, also when the server repeats a cursor or
/// answers an earlier page than asked for (see ``PagedRequest`` for where the paging information
/// comes from).
public actor Paginator<Request: PagedRequest> {
    /// One item of a page.
    public typealias Element = Request.Element

    private enum Kind {
        case first, next, refresh
    }

    private struct Load {
        let id: Int
        let kind: Kind
        let task: Task<APIResult<Page<Element>>?, Never>
    }

    private let client: APIClient
    private let request: Request
    private var book: PageBook<Element>
    private var load: Load?
    private var loads = 0
    /// Changes whenever the book is replaced, so a load started before a refresh is not recorded after it.
    private var generation = 0

    /// Creates a paginator; nothing is loaded until asked.
    /// - Parameters:
    ///   - client: The client that sends the pages.
    ///   - request: The endpoint; its ``PagedRequest/page`` is the first page.
    public init(client: APIClient, request: Request) {
        self.client = client
        self.request = request
        book = PageBook(first: request.page)
    }

    /// Every item loaded so far, in order.
    public var items: [Element] { book.items }
    /// The pages loaded so far, in order.
    public var loadedPages: [Page<Element>] { book.pages }
    /// How many pages are loaded (the number of the last one); 0 before the first.
    public var currentPage: Int { book.pages.count }
    /// The number of pages: from the paging information (`totalPages`, or `totalCount` and the
    /// page size), or the pages loaded once the end is reached; `nil` while unknown.
    public var maxPage: Int? { book.maxPage }
    /// The total number of items: from the paging information, or the items loaded once the end is
    /// reached; `nil` while unknown.
    public var totalCount: Int? { book.totalCount }
    /// Whether another page can be loaded (`true` before the first page).
    public var hasMore: Bool { book.hasMore }
    /// Whether a page is loading.
    public var isLoading: Bool { load != nil }

    /// Every page as an async sequence, in order: the pages already loaded, then the following
    /// ones, loaded as the sequence is iterated, until the end. A failed load throws its
    /// ``ServerFailure`` or ``TransportError``; cancelling the iterating Task cancels the load.
    public nonisolated var pages: PaginatorPages<Request> { PaginatorPages(paginator: self) }

    /// Loads the first page, unless it is already loaded (then returns it without a request) or
    /// loading (then waits for that load).
    public func loadFirstPage() async -> APIResult<Page<Element>> {
        if let first = book.pages.first { return .success(first, first.metadata) }
        if let load { return Self.firstPage(await load.task.value) }
        return Self.firstPage(await start(.first, at: book.first).task.value)
    }

    /// Loads the page after the last one loaded (the first page if none is).
    /// - Returns: The page, or its failure; `nil` at the end, when there is nothing more to load
    ///   (also when the server answered with a page beyond the end). A call made while a load is
    ///   running waits for that load and returns its result.
    public func loadNextPage() async -> APIResult<Page<Element>>? {
        if let load { return await load.task.value }
        if book.isEmpty { return await start(.first, at: book.first).task.value }
        guard let next = book.next else { return nil }
        return await start(.next, at: next).task.value
    }

    /// Loads the first page again and, when it succeeds, replaces everything loaded with it; on
    /// failure what was loaded stays. A next-page load in flight is cancelled; a first-page load
    /// or refresh in flight is awaited instead of starting another.
    public func refresh() async -> APIResult<Page<Element>> {
        if let load {
            guard load.kind == .next else { return Self.firstPage(await load.task.value) }
            load.task.cancel()
        }
        return Self.firstPage(await start(.refresh, at: book.first).task.value)
    }

    /// Cancels the load in flight, if any; it completes as cancelled and nothing is recorded.
    public func cancel() {
        load?.task.cancel()
    }

    /// The page at `index` (0-based), loading pages up to it; `nil` past the end.
    /// - Throws: A failed load's ``ServerFailure`` or ``TransportError``; ``TransportError/Reason/cancelled``
    ///   when the calling Task is cancelled.
    func page(at index: Int) async throws -> Page<Element>? {
        while index >= book.pages.count {
            guard load != nil || book.hasMore else { return nil }
            if Task.isCancelled { throw TransportError.cancelled() }
            guard let result = await loadNextPage() else { continue }
            _ = try result.get()
        }
        return book.pages[index]
    }

    // MARK: - Loading

    private func start(_ kind: Kind, at position: PagePosition) -> Load {
        loads += 1
        let id = loads
        let generation = generation
        var request = request
        request.page = position
        let task = Task { [client, request] in
            let result = await client.send(request)
            return self.finish(id, kind: kind, generation: generation, at: position, with: result)
        }
        let load = Load(id: id, kind: kind, task: task)
        self.load = load
        return load
    }

    private func finish(
        _ id: Int, kind: Kind, generation: Int, at position: PagePosition, with result: APIResult<Request.Response>
    ) -> APIResult<Page<Element>>? {
        if load?.id == id { load = nil }
        let response: Request.Response
        let metadata: ResponseMetadata
        switch result {
        case .success(let value, let responseMetadata): (response, metadata) = (value, responseMetadata)
        case .serverFailure(let failure): return .serverFailure(failure)
        case .transportError(let error): return .transportError(error)
        }
        guard generation == self.generation else {
            return .transportError(TransportError(.cancelled, message: "The page load was replaced by a refresh."))
        }
        let elements = request.elements(in: response)
        let info = request.pageInfo(in: response) ?? metadata.envelope?.page
        guard kind == .next else {
            var fresh = PageBook<Element>(first: book.first)
            let page = fresh.record(elements, info: info, at: position, metadata: metadata)
            book = fresh
            self.generation += 1
            return page.map { .success($0, metadata) }
        }
        return book.record(elements, info: info, at: position, metadata: metadata).map { .success($0, metadata) }
    }

    private static func firstPage(_ result: APIResult<Page<Element>>?) -> APIResult<Page<Element>> {
        result ?? .transportError(TransportError(.badResponse, message: "The first page could not be recorded."))
    }
}
