import Foundation

/// No usable answer came back: the request could not be built or sent, the connection failed,
/// it was cancelled or timed out, or the response could not be accepted or decoded.
///
/// Switch on ``reason``; ``message`` is a sentence for logs and ``underlyingError`` keeps the
/// original error (a `URLError`, a `DecodingError`, a ``RequestBuildError``...).
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. See `Docs/ResultClassification.md` for the full table.
    public enum Reason: Sendable, Hashable {
        /// A time limit ran out: connecting, silence on the wire, or the total deadline;
        /// ``TransportError/timeoutLimit`` says which.
        case timedOut
        /// The device is offline (no interface, data not allowed, roaming off).
        case notConnected
        /// The host was found but refused or could not be reached.
        case cannotConnect
        /// The host name could not be resolved.
        case cannotFindHost
        /// The connection dropped before the response was complete.
        case connectionLost
        /// The request was cancelled through its handle, its Task or the client.
        case cancelled
        /// TLS failed: untrusted or invalid certificate, handshake failure, pinning mismatch.
        case tls
        /// More redirects than the ``RedirectPolicy`` allows.
        case tooManyRedirects
        /// A redirect from `https` to `http` was refused (``RedirectPolicy/allowsInsecureRedirects``).
        case insecureRedirect
        /// The response was not valid HTTP or could not be read.
        case badResponse
        /// The response's content type is not in the accepted list (the value received).
        case unacceptableContentType(String?)
        /// The body could not be decoded into the response type.
        case decodingFailed
        /// The body exceeded the client's in-memory size cap (the limit in bytes).
        case responseTooLarge(limit: Int)
        /// The request could not be built (see ``RequestBuildError``).
        case requestBuildFailed
        /// A local file could not be read or written (disk full, permissions, a missing folder).
        case localFileError
        /// The request may only be answered from the cache (``CachePolicy/Mode/cacheOnly``), and
        /// nothing usable is cached.
        case notCached
        /// The URL's scheme or form is not supported by the transport.
        case unsupportedURL
        /// Any other failure reported by the transport.
        case other
    }

    /// What went wrong.
    public let reason: Reason
    /// A human-readable description.
    public let message: String
    /// The original error, if there was one.
    public let underlyingError: (any Error)?
    /// The response, when one was received (for example when decoding failed).
    public let metadata: ResponseMetadata?
    /// Which limit ran out, when ``reason`` is ``Reason/timedOut`` and the transport knows: tells
    /// a stall (``Timeouts/Limit/idle``) from a slow transfer (``Timeouts/Limit/total``) or an
    /// unreachable server (``Timeouts/Limit/connect``).
    public let timeoutLimit: Timeouts.Limit?

    /// Creates a transport error.
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - message: A sentence for logs.
    ///   - underlyingError: The original error, `nil` by default.
    ///   - metadata: The response, when one was received; `nil` by default.
    ///   - timeoutLimit: For ``Reason/timedOut``, the limit that ran out; `nil` by default.
    @_spi(Internal) public init(
        _ reason: Reason, message: String, underlyingError: (any Error)? = nil, metadata: ResponseMetadata? = nil,
        timeoutLimit: Timeouts.Limit? = nil
    ) {
        self.reason = reason
        self.message = message
        self.underlyingError = underlyingError
        self.metadata = metadata
        self.timeoutLimit = timeoutLimit
    }

    /// The reason and the message.
    public var description: String { "Transport error (\(reason)): \(message)" }

    /// A cancelled request.
    package static func cancelled() -> TransportError {
        TransportError(.cancelled, message: "The request was cancelled.")
    }

    /// A transfer that ran into `limit`.
    /// - Parameters:
    ///   - limit: The limit that fired.
    ///   - seconds: Its value, for the message.
    ///   - url: The request's URL, for the message.
    package static func timedOut(
        _ limit: Timeouts.Limit, after seconds: TimeInterval?, url: URL? = nil
    )
        -> TransportError
    {
        let value = seconds.map { " \(format($0)) s" } ?? ""
        let target = url.map { " (\($0.redactedForMessages))" } ?? ""
        let message: String
        switch limit {
        case .connect: message = "No connection to the server within\(value) (the connect timeout)\(target)."
        case .idle: message = "No byte was sent or received for\(value) (the idle timeout)\(target)."
        case .total: message = "The request did not finish within\(value) (the total timeout)\(target)."
        }
        return TransportError(.timedOut, message: message, timeoutLimit: limit)
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }
}
