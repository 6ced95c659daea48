import EndpointKit
import EndpointKitComposition
import EndpointKitStreaming

// The screen as the delegate of its requests, streams, batches and paginator: every method runs
// on the main actor, so it writes the screen's state directly.

extension NewsScreen: APIRequestDelegate {
    func request<Request: APIRequest>(
        _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
    ) {
        switch value {
        case let article as Article:
            title = article.title
            log("followed: \(article.title)")
        case let profile as Profile:
            title = profile.name
            log("delegate profile: \(profile.name)")
        default:
            break
        }
    }

    func request<Request: APIRequest>(_ request: Request, didFailOnServer failure: ServerFailure) {
        if request is LiveHeadlines, LiveHeadlines.isEndOfHeadlines(failure) { return log("followed live ended") }
        show(.server(failure))
    }

    func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {
        show(.transport(error))
    }
}

extension NewsScreen: StreamingRequestDelegate {
    func request<Request: StreamingRequest>(_ request: Request, didReceive element: Request.Element) {
        guard let headline = element as? Headline else { return }
        log("followed live: \(headline.title)")
    }
}

extension NewsScreen: BatchRequestDelegate {
    func batch<Results: Sendable>(_ batch: RequestHandle, didSucceedWith result: BatchResult<Results>) {
        guard batch == picksBatch, let results = result.results as? [APIResult<Article>] else { return }
        rows = results.compactMap { $0.value?.title }
        log("picks: \(rows.count)")
    }

    func batch<Results: Sendable>(
        _ batch: RequestHandle, didFailWith failure: BatchFailure, result: BatchResult<Results>
    ) {
        show(failure.failure)
    }
}

extension NewsScreen: PaginatorDelegate {
    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didLoad page: Page<Request.Element>) {
        guard paginator === archive else { return }
        archiveRows = archive.snapshot.items.map(\.title)
        log("archive page \(page.number): \(archiveRows.count) rows")
    }

    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure) {
        show(failure)
    }

    func paginatorDidReachEnd<Request: PagedRequest>(_ paginator: Paginator<Request>) {
        log("archive: end")
    }
}
