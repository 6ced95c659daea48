import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how often a failed request is sent again.
///
/// By default only idempotent methods are retried, and only after a timeout, a lost connection
/// or a status of 408, 429, 500, 502, 503 or 504. The wait grows exponentially with jitter, up
/// to a cap; a `Retry-After` header (seconds or an HTTP date) replaces the computed wait, unless
/// it is in the past or unparseable (then ignored) or longer than ``maximumDelay`` (then the
/// request is not retried: the server asked for longer than this policy waits).
///
/// The default ``RequestRetrier``: the client asks it last, after the request's features and the
/// interceptors had no opinion.
///
/// ```swift
/// client = APIClient(baseURL: url) { $0.retrier = RetryPolicy(maxRetries: 3) }
/// struct Upload: APIRequest { var retrier: (any RequestRetrier)? { RetryPolicy.none } ... }   // opt out
/// ```
public struct RetryPolicy: RequestRetrier, ImmediateRetrier, Hashable {
    /// How many times a request may be sent again after its first attempt (YTK `retry`).
    public var maxRetries: Int
    /// The wait before the first retry, in seconds. 0.5 by default.
    public var baseDelay: TimeInterval
    /// The factor by which the wait grows per retry. 2 by default.
    public var multiplier: Double
    /// The longest wait, in seconds. 30 by default.
    public var maximumDelay: TimeInterval
    /// The fraction of the wait that is randomized (0 = none, 1 = "full jitter"). 0.5 by default.
    public var jitter: Double
    /// Methods that may be retried. The idempotent methods by default.
    public var retryableMethods: Set<HTTPMethod>
    /// HTTP statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// Transport failures that are retried.
    public var retryableReasons: Set<TransportError.Reason>
    /// Whether `Retry-After` is honoured. `true` by default.
    public var honorsRetryAfter: Bool

    /// Creates a policy.
    /// - Parameters:
    ///   - maxRetries: Retries after the first attempt; 2 by default.
    ///   - baseDelay: The first wait in seconds; 0.5 by default.
    ///   - multiplier: The growth factor; 2 by default.
    ///   - maximumDelay: The cap in seconds; 30 by default.
    ///   - jitter: The randomized fraction of each wait; 0.5 by default.
    public init(
        maxRetries: Int = 2, baseDelay: TimeInterval = 0.5, multiplier: Double = 2, maximumDelay: TimeInterval = 30,
        jitter: Double = 0.5
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = max(0, baseDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(0, maximumDelay)
        self.jitter = min(1, max(0, jitter))
        retryableMethods = [.get, .head, .options, .put, .delete, "TRACE"]
        retryableStatusCodes = [408, 429, 500, 502, 503, 504]
        retryableReasons = [.timedOut, .connectionLost]
        honorsRetryAfter = true
    }

    /// Never retry.
    public static let none = RetryPolicy(maxRetries: 0)

    /// Two retries with the default conditions and backoff.
    package static let `default` = RetryPolicy()

    /// The wait before retry number `retry` (1-based), before jitter.
    package func nominalDelay(forRetry retry: Int) -> TimeInterval {
        min(maximumDelay, baseDelay * pow(multiplier, Double(max(0, retry - 1))))
    }

    /// The wait before retry number `retry`, with jitter: uniformly within
    /// `[nominal × (1 - jitter), nominal]`.
    package func delay(forRetry retry: Int) -> TimeInterval {
        let nominal = nominalDelay(forRetry: retry)
        return nominal * (1 - jitter * Double.random(in: 0...1))
    }

    /// The decision of ``retry(_:failedWith:context:)`` for attempt number `attempt` of a request
    /// with `method`.
    package func decision(after failure: APIFailure, attempt: Int, method: HTTPMethod) -> RetryDecision {
        guard retryableMethods.contains(method) else { return .noOpinion }
        switch failure {
        case .transport(let error):
            guard retryableReasons.contains(error.reason) else { return .noOpinion }
            return attempt <= maxRetries ? .retry(after: delay(forRetry: attempt)) : .stop
        case .server(let failure):
            guard failure.kind == .httpStatus, retryableStatusCodes.contains(failure.statusCode) else {
                return .noOpinion
            }
            guard attempt <= maxRetries else { return .stop }
            if honorsRetryAfter, let value = failure.metadata.header("Retry-After"),
                let wait = Self.parseRetryAfter(value, now: Date())
            {
                return wait <= maximumDelay ? .retry(after: wait) : .stop
            }
            return .retry(after: delay(forRetry: attempt))
        }
    }

    /// Decides whether the attempt of `context` (``RequestContext/attempt``, 1-based), which
    /// failed with `failure`, is sent again.
    /// - Returns: ``RetryDecision/retry(after:)`` with the wait; ``RetryDecision/stop`` when the
    ///   retries are used up or the server's `Retry-After` is longer than ``maximumDelay``;
    ///   ``RetryDecision/noOpinion`` when the method or the failure is not one this policy retries.
    public func retry(
        _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
    ) async
        -> RetryDecision
    {
        decision(after: failure, attempt: context.attempt, method: context.method)
    }

    /// Parses `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns `nil` for an
    /// unparseable value or a date in the past.
    package static func parseRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let wait = date.timeIntervalSince(now)
        return wait > 0 ? wait : nil
    }
}
