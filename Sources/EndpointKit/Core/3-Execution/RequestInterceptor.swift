import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adapts outgoing requests and decides retries: the place for auth headers, signing and token
/// refresh.
///
/// Both methods have defaults (no change, no retry). Interceptors run in the order configured;
/// each adapts the output of the previous one. For retries, the first interceptor that asks for
/// one wins; if none does, the ``RetryPolicy`` decides. Each call is bounded by the request's
/// timeout; an interceptor that throws fails the request with
/// ``TransportError/Reason/requestBuildFailed``.
public protocol RequestInterceptor: Sendable {
    /// Returns the request to send for this attempt.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest
    /// Decides whether a failed attempt is sent again.
    func retry(_ request: URLRequest, failedWith failure: APIFailure, context: RequestContext) async -> RetryDecision
}

extension RequestInterceptor {
    /// Returns the request unchanged.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
    /// Does not retry.
    public func retry(
        _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
    ) async
        -> RetryDecision
    {
        .doNotRetry
    }
}

/// What an interceptor wants done with a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Send it again now.
    case retry
    /// Send it again after this many seconds.
    case retryAfter(TimeInterval)
    /// Leave the decision to the next interceptor, then the retry policy.
    case doNotRetry
}
