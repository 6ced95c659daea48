import EndpointKit
import EndpointKitComposition
import EndpointKitStreaming

// The board as the delegate of its requests, its stream, its batch and its paginator. The
// protocols are `@MainActor`, as this module's types are by default: the conformances need
// nothing, and the methods write the screen's state directly.

extension BoardScreen: APIRequestDelegate {
    func request<Request: APIRequest>(
        _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
    ) {
        if let ticket = value as? Ticket {
            title = ticket.title
            record("watched: \(ticket.title)")
        } else if let member = value as? Member {
            title = member.name
            record("delegate member: \(member.name)")
        } else if let summary = value as? StreamSummary {
            record("listened activity ended after \(summary.bytesReceived) bytes")
        }
    }

    func request<Request: APIRequest>(_ request: Request, didFailOnServer failure: ServerFailure) {
        show(.server(failure))
    }

    func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {
        show(.transport(error))
    }
}

extension BoardScreen: StreamingRequestDelegate {
    func request<Request: StreamingRequest>(_ request: Request, didReceive element: Request.Element) {
        guard let entry = element as? Activity else { return }
        record("listened activity: \(entry.actor) \(entry.action)")
    }
}

extension BoardScreen: BatchRequestDelegate {
    func batch<Results: Sendable>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>) {
        guard batch == starredBatch, let results = result.results as? [APIResult<Ticket>] else { return }
        rows = results.compactMap(\.value?.title)
        record("starred: \(rows.count)")
    }

    func batch<Results: Sendable>(
        _ batch: RequestHandle, didFailWith failure: BatchFailure, result: BatchResult<Results>
    ) {
        show(failure.failure)
    }
}

extension BoardScreen: PaginatorDelegate {
    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didLoad page: Page<Request.Element>) {
        guard paginator === closedTickets else { return }
        closedRows = closedTickets.snapshot.items.map(\.title)
        record("closed page \(page.number): \(closedRows.count) rows")
    }

    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure) {
        show(failure)
    }

    func paginatorDidReachEnd<Request: PagedRequest>(_ paginator: Paginator<Request>) {
        record("closed: end")
    }
}
