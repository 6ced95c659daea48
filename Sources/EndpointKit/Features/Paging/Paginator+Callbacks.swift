import Dispatch
import Foundation

/// The paginator for closure and delegate code: the same loads and state as the async API, with
/// no Task to write.
extension Paginator {
    /// Where a paginator stands, read at one moment without awaiting, from any code
    /// (`tableView(_:numberOfRowsInSection:)` returns `posts.snapshot.items.count`).
    public struct Snapshot: Sendable {
        /// Every item loaded so far, in order.
        public let items: [Element]
        /// How many pages are loaded (the number of the last one); 0 before the first.
        public let currentPage: Int
        /// The number of pages: from the paging information (`totalPages`, or `totalCount` and the
        /// page size), or the pages loaded once the end is reached; `nil` while unknown.
        public let maxPage: Int?
        /// The total number of items: from the paging information, or the items loaded once the
        /// end is reached; `nil` while unknown.
        public let totalCount: Int?
        /// Whether another page can be loaded (`true` before the first page).
        public let hasMore: Bool
        /// Whether a page is loading.
        public let isLoading: Bool
    }

    /// Where the list stands now, every value read at the same moment.
    public nonisolated var snapshot: Snapshot {
        state.withLock { state in
            Snapshot(
                items: state.book.items, currentPage: state.book.pages.count, maxPage: state.book.maxPage,
                totalCount: state.book.totalCount, hasMore: state.book.hasMore, isLoading: state.load != nil)
        }
    }

    /// Hears every load of this paginator, whichever form started it, on the main actor; held
    /// weakly. `nil` by default. See ``PaginatorDelegate`` for what it is told and when.
    @MainActor public var delegate: (any PaginatorDelegate)? {
        get { state.withLock { $0.delegate }?.value }
        set { state.withLock { $0.delegate = newValue.map { WeakReference($0) } } }
    }

    /// Loads the first page, unless it is already loaded or loading, like ``loadFirstPage()``, and
    /// calls `completion` once on the main actor.
    ///
    /// ```swift
    /// posts.loadFirstPage { result in self.tableView.reloadData() }    // rows: posts.snapshot.items
    /// posts.loadFirstPage()                                             // the delegate hears it
    /// ```
    /// - Parameter completion: Called once with the first page or the failure. Without one, the
    ///   ``delegate`` is told, also when the page was already loaded.
    public nonisolated func loadFirstPage(completion: (@MainActor @Sendable (APIResult<Page<Element>>) -> Void)? = nil)
    {
        call(.first, completion: Self.answeringFirstPage(completion))
    }

    /// Loads the page after the last one loaded, like ``loadNextPage()``, and calls `completion`
    /// once on the main actor. A call made while a page is loading joins that load
    /// (two scroll events load one page; each closure hears it).
    /// - Parameter completion: Called once with the page, the failure, or `nil` at the end. Without
    ///   one, the ``delegate`` is told, also at the end
    ///   (``PaginatorDelegate/paginatorDidReachEnd(_:)``).
    public nonisolated func loadNextPage(completion: (@MainActor @Sendable (APIResult<Page<Element>>?) -> Void)? = nil)
    {
        call(.next, completion: completion)
    }

    /// Loads the first page again and replaces everything loaded when it succeeds, like
    /// ``refresh()``, and calls `completion` once on the main actor.
    /// - Parameter completion: Called once with the first page or the failure. Without one, the
    ///   ``delegate`` is told.
    public nonisolated func refresh(completion: (@MainActor @Sendable (APIResult<Page<Element>>) -> Void)? = nil) {
        call(.refresh, completion: Self.answeringFirstPage(completion))
    }

    /// A completion for a load of the first page, which always has a page or a failure.
    private static func answeringFirstPage(
        _ completion: (@MainActor @Sendable (APIResult<Page<Element>>) -> Void)?
    ) -> (@MainActor @Sendable (APIResult<Page<Element>>?) -> Void)? {
        guard let completion else { return nil }
        return { completion(firstPage($0)) }
    }

    /// Starts or joins a load for a call of `kind`, answering `completion` (or, without one, the
    /// delegate) once.
    private nonisolated func call(_ kind: Kind, completion: (@MainActor @Sendable (APIResult<Page<Element>>?) -> Void)?)
    {
        guard let completion else {
            guard case .now(let result) = step(kind) else { return }
            // Nothing to load: the delegate hears the answer, as it would have heard a load.
            if let delegate = state.withLock({ $0.delegate }) {
                MainQueue.async { delegate.value?.receive(result, from: self) }
            }
            return
        }
        guard case .now(let result) = step(kind, waiter: completion) else { return }
        MainQueue.async { completion(result) }
    }

    /// Tells the closures waiting for a load, then the delegate, in one turn of the main queue
    /// (as ``APIClient`` tells a request's delegates).
    nonisolated func announce(
        _ outcome: APIResult<Page<Element>>?, to waiters: [@MainActor @Sendable (APIResult<Page<Element>>?) -> Void],
        delegate: WeakReference<any PaginatorDelegate>?
    ) {
        guard !waiters.isEmpty || delegate != nil else { return }
        MainQueue.async { [self] in
            for waiter in waiters { waiter(outcome) }
            delegate?.value?.receive(outcome, from: self)
        }
    }
}
