import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers a server's `Basic` or `Digest` challenge with the attempt's
/// ``TransportRequest/credential``, in front of whatever sends the attempt (the transport, the
/// coalescer).
///
/// Inside one attempt, as a redirect is followed: stages, interceptors, plugins and retriers see
/// the request as built and the last response, never the `401` that was answered, and no attempt
/// or retry is counted. Every transport (``CurlTransport``, ``URLSessionTransport`` on Linux and
/// on Apple platforms, test doubles) hands a `401` back as a response, so the answer is computed
/// here, once for all of them, with one rule for where a credential may go:
///
/// - only a `401` from the origin (scheme, host, port) the attempt was sent to is answered; after
///   a redirect to another origin the `401` is the result;
/// - the request is sent again once, with `Authorization` set to the answer; what comes back is the
///   result (a second `401` ends as a ``ServerFailure``);
/// - when a redirect within the origin came before the challenge, the answer goes to the URL that
///   challenged, for `GET` and `HEAD` only: a redirect may have changed any other method (303, or
///   301/302 after a `POST`), which the answer (Digest's `uri` and method) must name;
/// - the resend keeps what is left of the total time limit;
/// - like any `Authorization` header, the answer is dropped by a redirect that leaves the origin
///   (``RedirectPolicy``).
final class ChallengeAnsweringSender: AttemptSender {
    private let next: any AttemptSender

    init(_ next: any AttemptSender) { self.next = next }

    func send<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        guard let credential = request.credential else {
            return next.send(request, for: endpoint, completion: completion)
        }
        let task = AnsweringTask()
        let started = DispatchTime.now().uptimeNanoseconds
        let first = next.send(request, for: endpoint) { [next] outcome in
            guard case .success(let response) = outcome,
                let answer = Self.answer(to: response, of: request, with: credential, startedAt: started)
            else { return completion(outcome) }
            switch answer {
            case .failure(let error):
                completion(.failure(error))
            case .success(let resent):
                let sent = task.answer { next.send(resent, for: endpoint, completion: completion) }
                if !sent { completion(outcome) }
            }
        }
        task.started(first)
        return task
    }

    /// The request answering `response`'s challenge, or `nil` when it is not a `401` with a
    /// challenge this credential may answer; a failure when the total time limit has run out.
    static func answer(
        to response: TransportResponse, of request: TransportRequest, with credential: HTTPCredential,
        startedAt started: UInt64
    ) -> Result<TransportRequest, TransportError>? {
        let head = response.head
        guard head.statusCode == 401, let field = head.value(forHTTPHeaderField: "WWW-Authenticate"),
            let sentURL = request.urlRequest.url
        else { return nil }
        let challengeURL = head.url ?? sentURL
        guard RedirectPolicy.sameOrigin(sentURL, challengeURL) else { return nil }
        var resent = request
        let method = request.urlRequest.httpMethod ?? "GET"
        if challengeURL.absoluteString != sentURL.absoluteString {
            guard method == "GET" || method == "HEAD" else { return nil }
            resent.urlRequest.url = challengeURL
        }
        guard
            let authorization = HTTPChallenge.authorization(
                answering: HTTPChallenge.parse(field), with: credential, method: method,
                target: requestTarget(of: challengeURL))
        else { return nil }
        resent.urlRequest.setValue(authorization, forHTTPHeaderField: "Authorization")
        // Answered once: the resend carries no credential, so its own 401 is the result.
        resent.credential = nil
        if let total = request.timeouts.totalLimit {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            guard elapsed < total else { return .failure(.timedOut(.total, after: total, url: sentURL)) }
            resent.timeouts.total = total - elapsed
        }
        return .success(resent)
    }

    /// The request target of `url` as the request line carries it (RFC 9112 §3.2.1): the path,
    /// percent-encoded as sent (`/` when empty), and `?query` if any.
    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        var target = path.isEmpty ? "/" : path
        if let query = components?.percentEncodedQuery { target += "?" + query }
        return target
    }
}

/// The transfer of an attempt that may be sent twice: cancelling it cancels whichever is running.
private final class AnsweringTask: TransportTask {
    private struct State {
        var current: (any TransportTask)?
        var isCancelled = false
        var isAnswering = false
    }

    private let state = Locked(State())

    func cancel() {
        let current = state.withLock { state in
            state.isCancelled = true
            return state.current
        }
        current?.cancel()
    }

    /// The first transfer started; kept unless its answer started already (a transport that
    /// completed before returning).
    func started(_ task: any TransportTask) {
        let cancelled = state.withLock { state -> Bool in
            guard !state.isAnswering else { return false }
            state.current = task
            return state.isCancelled
        }
        if cancelled { task.cancel() }
    }

    /// Starts the answering transfer unless the attempt was cancelled.
    /// - Returns: Whether it started.
    func answer(_ start: () -> any TransportTask) -> Bool {
        let proceeds = state.withLock { state -> Bool in
            guard !state.isCancelled else { return false }
            state.isAnswering = true
            return true
        }
        guard proceeds else { return false }
        let task = start()
        let cancelled = state.withLock { state -> Bool in
            state.current = task
            return state.isCancelled
        }
        if cancelled { task.cancel() }
        return true
    }
}
