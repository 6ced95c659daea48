import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Changes a request before each attempt is sent: the place for auth headers and signing.
///
/// On Linux `URLRequest` is in FoundationNetworking: a file that adopts this protocol (or
/// ``RequestRetrier``, ``RequestInterceptor``) imports it under `#if canImport(FoundationNetworking)`.
///
/// Adapters run in the order configured, each on the output of the previous one, bounded by the
/// request's idle timeout. One that throws fails the request with
/// ``TransportError/Reason/requestBuildFailed``; whatever it writes is checked again (no CR, LF or
/// NUL in a header) before anything is sent.
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest
}

/// Decides whether a failed attempt is sent again.
///
/// After a failed attempt the client asks, in this order, until one answers something other than
/// ``RetryDecision/noOpinion``: the request's own features (a resumed download the server refused
/// restarts once), the ``APIClient/Configuration/interceptors``, the request's own
/// ``APIRequest/interceptors``, and last the request's
/// ``APIRequest/retrier`` or else the client's ``APIClient/Configuration/retrier`` (usually a
/// retry policy with backoff). A cancelled request is never retried, and no request makes more
/// than 20 attempts.
public protocol RequestRetrier: Sendable {
    /// What to do with a failed attempt.
    /// - Parameters:
    ///   - request: The request that was sent.
    ///   - failure: Why it failed.
    ///   - context: The send: its attempt number, earlier failures, method and endpoint.
    func retry(_ request: URLRequest, failedWith failure: APIFailure, context: RequestContext) async -> RetryDecision
}

/// An adapter and a retrier in one, for example authentication: add a credential, refresh it after
/// a 401 and send the request again. Both methods have defaults: no change, no opinion.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Returns the request unchanged.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }

    /// ``RetryDecision/noOpinion``.
    public func retry(
        _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
    ) async
        -> RetryDecision
    {
        .noOpinion
    }
}

/// What a ``RequestRetrier`` wants done with a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Send the request again after this many seconds (0 for at once).
    case retry(after: TimeInterval)
    /// Leave the decision to the next retrier; when none decides, the failure is the result.
    case noOpinion
    /// Do not send it again, whatever the retriers after this one would say.
    case stop
}

/// A retrier whose decision needs no waiting: the execution asks it at once, where the response
/// was processed, instead of in a task (see `RequestExecution`).
protocol ImmediateRetrier: RequestRetrier {
    /// What ``RequestRetrier/retry(_:failedWith:context:)`` answers for attempt number `attempt`
    /// (1-based) of a request with `method`, which failed with `failure`.
    func decision(after failure: APIFailure, attempt: Int, method: HTTPMethod) -> RetryDecision
}
