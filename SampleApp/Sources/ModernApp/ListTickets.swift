import EndpointKit

/// The board's tickets, by cursor: `/tickets?limit=2&state=open`, then `&cursor=<next>`.
struct ListTickets: PagedRequest {
    typealias Response = TicketPage
    var page: PagePosition = .cursor(nil, limit: 2)
    /// `open` or `closed`.
    var state = "open"
    var path: RequestPath { "/tickets" }
    var parameters: RequestParameters {
        var query = page.queryItems()
        query.append("state", .string(state))
        return .query(query)
    }

    func elements(in response: TicketPage) -> [Ticket] { response.items }
    func pageInfo(in response: TicketPage) -> PageInfo? {
        PageInfo(hasMore: response.next != nil, nextCursor: response.next)
    }
}
