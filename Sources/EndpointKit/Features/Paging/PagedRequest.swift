/// An endpoint that returns a list one page at a time, for a ``Paginator``.
///
/// Declare where the page is (``page``, whose starting value chooses the style and the size),
/// and, unless the response is the array of items itself, how to find the items in it:
///
/// ```swift
/// struct ListPosts: PagedRequest {
///     typealias Response = [Post]                       // the items: nothing else to write
///     var page: PagePosition = .number(1, size: 20)
///     var path: RequestPath { "/posts" }                // sent as /posts?page=1&pageSize=20
/// }
///
/// struct Timeline: PagedRequest {
///     typealias Response = TimelinePage                 // {"items":[...],"next":"abc"}
///     var page: PagePosition = .cursor(nil, limit: 50)
///     var path: RequestPath { "/timeline" }
///     func elements(in response: TimelinePage) -> [Post] { response.items }
///     func pageInfo(in response: TimelinePage) -> PageInfo? { PageInfo(nextCursor: response.next) }
/// }
/// ```
///
/// Paging information (total, has-more, page count, next cursor) comes from
/// ``pageInfo(in:)`` when it returns a value, otherwise from the response envelope
/// (`ResponseMetadata.envelope?.page`, such as `{"page":{"totalRows":95,"hasMore":true}}`).
/// Without either, a page shorter than its size is the last one.
public protocol PagedRequest: APIRequest {
    /// One item of a page.
    associatedtype Element: Sendable

    /// The page this request asks for. The paginator starts from the value the request has and
    /// sets it for every following page.
    var page: PagePosition { get set }

    /// The items of one page, in order.
    func elements(in response: Response) -> [Element]

    /// Paging information carried by the response itself, when it has any. `nil` by default,
    /// which means the envelope's.
    func pageInfo(in response: Response) -> PageInfo?
}

extension PagedRequest {
    /// The page as query parameters with the default names (`page`/`pageSize`,
    /// `offset`/`limit`, `cursor`/`limit`); see ``PagePosition/queryItems(number:size:offset:limit:cursor:)``.
    public var parameters: RequestParameters { .query(page.queryItems()) }

    /// `nil`: the envelope's page information, if any.
    public func pageInfo(in response: Response) -> PageInfo? { nil }
}

extension PagedRequest where Response: Sequence, Response.Element: Sendable {
    /// The response itself, when it is the list of items (`[Post]`).
    public func elements(in response: Response) -> [Response.Element] { Array(response) }
}
