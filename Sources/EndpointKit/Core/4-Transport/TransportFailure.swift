import Foundation

/// Why a transport could not deliver a response: only what a transport can know.
///
/// A ``Transport`` completes with a ``TransportResponse`` or a `TransportFailure`; ``APIClient``
/// turns a failure into the ``TransportError`` of ``APIResult/transportError(_:)``, with the same
/// reason, message, underlying error and limit. Failures only the client decides (decoding,
/// validation, cache, building) have no reason here, so a transport cannot report them.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong on the way to a response.
    public enum Reason: Sendable, Hashable {
        /// A time limit ran out; ``TransportFailure/timeoutLimit`` says which.
        case timedOut
        /// The device is offline.
        case notConnected
        /// The host was found but refused or could not be reached.
        case cannotConnect
        /// The host name could not be resolved.
        case cannotFindHost
        /// The connection dropped before the response was complete.
        case connectionLost
        /// The transfer was cancelled.
        case cancelled
        /// TLS failed: untrusted or invalid certificate, handshake failure, pinning mismatch.
        case tls
        /// More redirects than the ``RedirectPolicy`` allows.
        case tooManyRedirects
        /// A redirect from `https` to `http` was refused.
        case insecureRedirect
        /// The response was not valid HTTP or could not be read.
        case badResponse
        /// The body exceeded ``TransportRequest/maximumResponseSize`` (the limit in bytes).
        case responseTooLarge(limit: Int)
        /// A body file could not be read or a download file written.
        case localFileError
        /// The URL's scheme or form is not supported.
        case unsupportedURL
        /// The request's head was refused before a byte was written: a method or header name that
        /// is not a token, or a header value holding CR, LF or NUL (the client reports
        /// ``TransportError/Reason/requestBuildFailed``).
        case invalidRequest
        /// Any other failure of the HTTP stack.
        case other
    }

    /// What went wrong.
    public let reason: Reason
    /// A human-readable description.
    public let message: String
    /// The original error, if there was one (a `URLError`, a libcurl error, a `RequestBuildError`).
    public let underlyingError: (any Error)?
    /// For ``Reason/timedOut``, the limit that ran out.
    public let timeoutLimit: Timeouts.Limit?

    /// Creates a failure.
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - message: A sentence for logs.
    ///   - underlyingError: The original error; `nil` by default.
    ///   - timeoutLimit: For ``Reason/timedOut``, the limit that ran out; `nil` by default.
    public init(
        _ reason: Reason, message: String, underlyingError: (any Error)? = nil, timeoutLimit: Timeouts.Limit? = nil
    ) {
        self.reason = reason
        self.message = message
        self.underlyingError = underlyingError
        self.timeoutLimit = timeoutLimit
    }

    /// The reason and the message.
    public var description: String { "Transport failure (\(reason)): \(message)" }

    /// A cancelled transfer.
    public static func cancelled() -> TransportFailure {
        TransportFailure(.cancelled, message: "The request was cancelled.")
    }

    /// A transfer that ran into `limit`.
    /// - Parameters:
    ///   - limit: The limit that fired.
    ///   - seconds: Its value, for the message.
    ///   - url: The request's URL, for the message.
    public static func timedOut(
        _ limit: Timeouts.Limit, after seconds: TimeInterval?, url: URL? = nil
    )
        -> TransportFailure
    {
        let value = seconds.map { " \(format($0)) s" } ?? ""
        let target = url.map { " (\($0.redactedForMessages))" } ?? ""
        let message: String
        switch limit {
        case .connect: message = "No connection to the server within\(value) (the connect timeout)\(target)."
        case .idle: message = "No byte was sent or received for\(value) (the idle timeout)\(target)."
        case .total: message = "The request did not finish within\(value) (the total timeout)\(target)."
        }
        return TransportFailure(.timedOut, message: message, timeoutLimit: limit)
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }
}

extension TransportError {
    /// The error a caller sees for a transport's failure: the same reason, message, underlying
    /// error and limit (a refused request head is ``Reason/requestBuildFailed``).
    public init(_ failure: TransportFailure) {
        let reason: Reason
        switch failure.reason {
        case .timedOut: reason = .timedOut
        case .notConnected: reason = .notConnected
        case .cannotConnect: reason = .cannotConnect
        case .cannotFindHost: reason = .cannotFindHost
        case .connectionLost: reason = .connectionLost
        case .cancelled: reason = .cancelled
        case .tls: reason = .tls
        case .tooManyRedirects: reason = .tooManyRedirects
        case .insecureRedirect: reason = .insecureRedirect
        case .badResponse: reason = .badResponse
        case .responseTooLarge(let limit): reason = .responseTooLarge(limit: limit)
        case .localFileError: reason = .localFileError
        case .unsupportedURL: reason = .unsupportedURL
        case .invalidRequest: reason = .requestBuildFailed
        case .other: reason = .other
        }
        self.init(
            reason, message: failure.message, underlyingError: failure.underlyingError,
            timeoutLimit: failure.timeoutLimit)
    }
}
