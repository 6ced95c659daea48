import EndpointKit

/// The feed, one page of articles.
struct FeedRequest: APIRequest {
    typealias Response = [Article]
    var path: RequestPath { "/feed" }
    /// A refresh asks for a new transfer: it does not share the one it replaces.
    var coalescesIdenticalRequests: Bool? { false }
}

/// A controller-like object driven by the delegate: it loads the feed and turns each outcome into
/// what the screen shows.
@MainActor
final class FeedController: APIRequestDelegate {
    enum State: Equatable {
        case idle
        case loading
        case loaded([Article])
        case failed(String)
    }

    private let client: APIClient
    private var handle: RequestHandle?
    private(set) var state = State.idle {
        didSet { onChange?(state) }
    }
    /// Called on every state change (the screen would re-render).
    var onChange: ((State) -> Void)?

    init(client: APIClient) { self.client = client }

    /// Loads the feed again, cancelling a load still running.
    func refresh() {
        handle?.cancel()
        state = .loading
        handle = client.send(FeedRequest(), delegate: self)
    }

    func request<Request: APIRequest>(
        _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
    ) {
        guard let articles = value as? [Article] else { return }
        state = .loaded(articles)
    }

    func request<Request: APIRequest>(_ request: Request, didFailOnServer failure: ServerFailure) {
        let message = (try? failure.decodeBody(as: APIErrorBody.self).error) ?? "Server error \(failure.statusCode)"
        state = .failed(message)
    }

    func request<Request: APIRequest>(_ request: Request, didFailInTransport error: TransportError) {
        // A cancelled load was replaced by a newer one: it has nothing to show.
        guard error.reason != .cancelled else { return }
        state = .failed(error.reason == .notConnected ? "You are offline." : "Could not load the feed.")
    }
}
