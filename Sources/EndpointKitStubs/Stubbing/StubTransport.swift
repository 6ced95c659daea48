@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``/EndpointKit/Transport`` that answers from canned responses instead of the network, for unit tests of
/// endpoints and of the code that uses an ``/EndpointKit/APIClient``.
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.stub(.request(GetUser.self), with: .json(#"{"id":7,"name":"Ada"}"#))
/// stubs.stub(.path("/feed", method: .get), sequence: [.failure(.timedOut), .failure(.timedOut), .json("[]")])
/// let client = APIClient(configuration: .init(baseURL: URL(string: "https://api.test"), transport: stubs))
/// ```
///
/// ## Which stub answers
/// With ``Precedence/mostRecent`` (the default) the stub added last among those that match
/// answers, so a test can override a general stub from `setUp` with a more specific one, or
/// replace a stub by adding it again. With ``Precedence/rejectAmbiguous`` a request that two
/// stubs match fails instead, naming both.
///
/// A stub with a sequence answers with its responses in order and then keeps answering with the
/// last one. A request no stub matches is answered from the endpoint's sample response when the
/// transport was created with `answersFromSamples: true` and the endpoint adopts
/// ``SampleResponseProviding``; otherwise it fails with ``/EndpointKit/TransportError/Reason/other`` and a
/// message naming the request and every stub.
///
/// Every request is recorded, matched or not: see ``recordedRequests`` and ``endpoints(of:)``.
/// Answers arrive asynchronously and behave as over the network: the request's idle and total
/// timeouts apply (a delay longer than one times out), a cancelled request completes at once, progress is
/// reported (the whole upload, then the whole response), a download request gets its 2xx body
/// written to its file (a `206` with a matching `Content-Range` continues a resumed one), and
/// other bodies are held to the size cap.
public final class StubTransport: EndpointAwareTransport, Sendable {
    /// What happens when more than one stub matches a request.
    public enum Precedence: Sendable, Hashable {
        /// The stub added most recently answers.
        case mostRecent
        /// The request fails with a message naming the stubs that match.
        case rejectAmbiguous
    }

    private let registry: StubRegistry

    /// Creates a transport with no stubs.
    /// - Parameters:
    ///   - precedence: What happens when several stubs match; ``Precedence/mostRecent`` by default.
    ///   - answersFromSamples: Whether requests that match no stub are answered with the
    ///     endpoint's ``SampleResponseProviding/sampleResponse``. `false` by default.
    public init(precedence: Precedence = .mostRecent, answersFromSamples: Bool = false) {
        registry = StubRegistry(precedence: precedence, answersFromSamples: answersFromSamples)
    }

    /// The host requests go to when the client has no base URL (a demo build or a preview, as in
    /// `APIClient.Configuration(baseURL: nil, transport: StubTransport(answersFromSamples: true))`):
    /// `https://stubs.invalid`, a name that never resolves (RFC 2606), so a path stub still sees
    /// the endpoint's path.
    package var standInBaseURL: URL? { URL(string: "https://stubs.invalid") }

    /// Answers the requests `matcher` matches with `response`.
    /// - Parameters:
    ///   - matcher: Which requests, for example `.request(GetUser.self)` or `.path("/users/7")`.
    ///   - response: The answer, for example `.json(...)`, `.status(404)` or `.failure(.timedOut)`.
    public func stub(_ matcher: StubMatcher, with response: StubResponse) {
        registry.add(matcher, [response])
    }

    /// Answers the requests `matcher` matches with `responses` in order, then keeps answering with
    /// the last one (for example, fail twice and then succeed).
    /// - Parameters:
    ///   - matcher: Which requests.
    ///   - responses: The answers in order; an empty list adds no stub.
    public func stub(_ matcher: StubMatcher, sequence responses: [StubResponse]) {
        guard !responses.isEmpty else { return }
        registry.add(matcher, responses)
    }

    /// Answers requests with this method and path with a JSON body.
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path, as for ``StubMatcher/path(_:method:)``.
    ///   - status: The HTTP status; 200 by default.
    ///   - json: The body text.
    public func stub(_ method: HTTPMethod, _ path: String, status: Int = 200, json: String) {
        stub(.path(path, method: method), with: .json(json, status: status))
    }

    /// Removes every stub; recorded requests are kept.
    public func removeAllStubs() { registry.removeAll() }

    /// Every request seen so far, in order, matched or not.
    public var recordedRequests: [RecordedRequest] { registry.requests }

    /// The requests seen so far that `matcher` matches, in order.
    public func recordedRequests(matching matcher: StubMatcher) -> [RecordedRequest] {
        registry.requests.filter { matcher.matches($0) }
    }

    /// The endpoint values of type `Request` sent so far, in order, for assertions such as
    /// `XCTAssertEqual(stubs.endpoints(of: GetUser.self).map(\.id), [7])`.
    public func endpoints<Request: APIRequest>(of type: Request.Type) -> [Request] {
        registry.requests.compactMap { $0.endpoint as? Request }
    }

    /// Answers from the matching stub, asynchronously; see ``/EndpointKit/Transport/execute(_:completion:)``.
    /// Only stubs that do not look at the endpoint can match (the request has none).
    public func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        answer(RecordedRequest(request, endpoint: nil), request, completion)
    }

    /// Answers from the stub matching the request or its endpoint, asynchronously; what an
    /// ``/EndpointKit/APIClient`` calls.
    package func execute<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        answer(RecordedRequest(request, endpoint: endpoint), request, completion)
    }

    private func answer(
        _ recorded: RecordedRequest, _ request: TransportRequest,
        _ completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        let task = CompletionTask(completion)
        switch registry.resolve(recorded) {
        case .noMatch(let message):
            task.finish(after: 0, timeouts: nil) { .failure(TransportError(.other, message: message)) }
        case .answer(let response):
            if case .stream(let status, let headers, let chunks, let ending) = response.content {
                StubStreamer(
                    task: task, request: request, status: status, headers: headers, chunks: chunks, ending: ending,
                    collected: { Self.result(of: response, for: request) }
                ).start(after: response.delay)
                return task
            }
            task.finish(after: response.delay, timeouts: request.timeouts) { Self.result(of: response, for: request) }
        }
        return task
    }

    private static func result(
        of response: StubResponse, for request: TransportRequest
    ) -> Result<TransportResponse, TransportError> {
        switch response.content {
        case .failure(let error):
            return .failure(error)
        case .http(let status, let headers, let body):
            return TransportResponse.make(for: request, status: status, headers: headers.dictionary, body: body)
        case .file(let url, let status, let headers):
            do {
                let body = try Data(contentsOf: url)
                return TransportResponse.make(for: request, status: status, headers: headers.dictionary, body: body)
            } catch {
                let message = "The stub fixture for \(request.urlRequest.label) cannot be read at \(url.path): \(error)"
                return .failure(TransportError(.other, message: message, underlyingError: error))
            }
        case .stream(let status, let headers, let chunks, let ending):
            // Not streamed (the request does not, or refused the status): the whole body at once.
            if let ending {
                return .failure(TransportError(ending, message: "The stubbed stream ended with \(ending)."))
            }
            let body = chunks.reduce(into: Data()) { $0.append($1.data) }
            return TransportResponse.make(for: request, status: status, headers: headers.dictionary, body: body)
        case .sample:
            // The registry resolves samples before answering; this is only reached if it did not.
            return .failure(
                TransportError(.other, message: "Unresolved sample response for \(request.urlRequest.label)."))
        }
    }
}
