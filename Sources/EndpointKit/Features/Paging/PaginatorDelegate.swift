/// Hears a ``Paginator``'s loads on the main actor, for code that pages from delegate callbacks.
/// Every method has an empty default, so adopt only what you need. Delegates are held weakly.
///
/// ```swift
/// final class FeedController: PaginatorDelegate {
///     let posts = Paginator(client: client, request: ListPosts())
///     func viewDidLoad() { posts.delegate = self; posts.loadFirstPage() }
///     func didScrollToEnd() { if posts.snapshot.hasMore { posts.loadNextPage() } }
///
///     func paginator<Request>(_ paginator: Paginator<Request>, didLoad page: Page<Request.Element>) {
///         tableView.reloadData()                     // rows: posts.snapshot.items
///     }
///     func paginator<Request>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure) {
///         showError(failure)
///     }
/// }
/// ```
///
/// The delegate hears every load once, whichever form started it (async, a closure, or a call
/// without a closure), after the closures waiting for that load. A call without a closure that
/// has nothing to load is answered to the delegate too: ``paginator(_:didLoad:)`` with the first
/// page already loaded, ``paginatorDidReachEnd(_:)`` at the end. The methods are generic so that one object can page several lists; tell them apart
/// with `===` (`paginator === posts`).
///
/// A cancelled load (``Paginator/cancel()``, or a next page replaced by a refresh) is reported to
/// ``paginator(_:didFailWith:)`` with reason ``TransportError/Reason/cancelled``.
@MainActor
public protocol PaginatorDelegate: AnyObject {
    /// A page loaded; the paginator's ``Paginator/snapshot`` already includes it.
    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didLoad page: Page<Request.Element>)
    /// A load failed; what was loaded stays, and the same page can be asked for again.
    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure)
    /// There is nothing more to load: a call was made at the end, or the server answered with a
    /// page beyond the end (dropped; `snapshot.hasMore` is now `false`).
    func paginatorDidReachEnd<Request: PagedRequest>(_ paginator: Paginator<Request>)
}

extension PaginatorDelegate {
    /// Does nothing.
    public func paginator<Request: PagedRequest>(
        _ paginator: Paginator<Request>, didLoad page: Page<Request.Element>
    ) {}
    /// Does nothing.
    public func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure) {}
    /// Does nothing.
    public func paginatorDidReachEnd<Request: PagedRequest>(_ paginator: Paginator<Request>) {}
}

extension PaginatorDelegate {
    /// Calls the method that matches `outcome` (`nil`: the end).
    func receive<Request: PagedRequest>(
        _ outcome: APIResult<Page<Request.Element>>?, from paginator: Paginator<Request>
    ) {
        switch outcome {
        case .success(let page, _)?: self.paginator(paginator, didLoad: page)
        case .serverFailure(let failure)?: self.paginator(paginator, didFailWith: .server(failure))
        case .transportError(let error)?: self.paginator(paginator, didFailWith: .transport(error))
        case nil: paginatorDidReachEnd(paginator)
        }
    }
}
