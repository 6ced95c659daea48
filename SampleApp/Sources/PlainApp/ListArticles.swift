import EndpointKit

/// The feed, page by page: `/articles?page=1&pageSize=2`, then page 2...
struct ListArticles: PagedRequest {
    typealias Response = ArticlePage
    var page: PagePosition = .number(1, size: 2)
    /// Which list: the latest articles, or the archive.
    var section = "latest"
    var path: RequestPath { "/articles" }
    var parameters: RequestParameters {
        var query = page.queryItems()
        query.append("section", .string(section))
        return .query(query)
    }

    func elements(in response: ArticlePage) -> [Article] { response.items }
    func pageInfo(in response: ArticlePage) -> PageInfo? { PageInfo(hasMore: response.hasMore) }
}
