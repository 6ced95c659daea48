import Foundation

/// The three time limits of a request: connecting, silence on the wire, and the whole transfer.
///
/// A stalled connection is told from a slow transfer: the ``idle`` limit ends a request when no
/// byte has been sent or received for that long, however long the transfer has been running, so
/// a 1 GiB download at 10 MB/s finishes while a dead connection is noticed within a minute.
/// There is no ``total`` limit by default, so that no transfer fails only for being large.
///
/// ```swift
/// let client = APIClient(baseURL: url) {
///     $0.timeouts = Timeouts(connect: 10, idle: 30)        // for every request
/// }
/// struct ExportReport: APIRequest {
///     var totalTimeout: TimeInterval? { 600 }              // this request only: at most 10 min
///     ...
/// }
/// ```
///
/// A request that runs into a limit fails with ``TransportError/Reason/timedOut``, and
/// ``TransportError/timeoutLimit`` says which limit it was.
public struct Timeouts: Sendable, Hashable {
    /// One of the three limits.
    public enum Limit: String, Sendable, Hashable {
        /// The connection (DNS, TCP and TLS) was not established in time.
        case connect
        /// No byte was sent or received for too long.
        case idle
        /// The request did not finish within its total deadline.
        case total
    }

    /// The longest wait for a connection (DNS, TCP and TLS), in seconds; 0 or less for no limit
    /// of its own. 30 by default.
    ///
    /// ``URLSessionTransport`` has no connection event: there the limit runs until the first sign
    /// of the server (the response head, or body bytes sent), see `Docs/Transports.md`.
    public var connect: TimeInterval
    /// The longest time without a byte sent or received, in seconds, also while the server
    /// prepares its answer; 0 or less for none. 60 by default, as URLSession's
    /// `timeoutIntervalForRequest`.
    ///
    /// Enforced with a granularity of about a second (URLSession on Linux counts whole seconds):
    /// a limit below 1 s acts as 1 s.
    public var idle: TimeInterval
    /// The longest a request may take from start to the end of its body, in seconds; `nil` (the
    /// default) for none. Each attempt of a retried request has its own.
    public var total: TimeInterval?

    /// Creates limits.
    /// - Parameters:
    ///   - connect: The connect limit in seconds; 30 by default.
    ///   - idle: The idle limit in seconds; 60 by default.
    ///   - total: The total deadline in seconds; `nil` (none) by default.
    public init(connect: TimeInterval = 30, idle: TimeInterval = 60, total: TimeInterval? = nil) {
        self.connect = connect
        self.idle = idle
        self.total = total
    }

    /// The connect limit, or `nil` when there is none.
    var connectLimit: TimeInterval? { connect > 0 ? connect : nil }
    /// The idle limit, or `nil` when there is none.
    var idleLimit: TimeInterval? { idle > 0 ? idle : nil }
    /// The total limit, or `nil` when there is none.
    var totalLimit: TimeInterval? { total.flatMap { $0 > 0 ? $0 : nil } }

    /// `seconds` of a limit or a wait as nanoseconds, from 0 to about 30 years: what the transports
    /// that keep limits themselves add to `DispatchTime` readings, and what `Task.sleep` takes.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 { UInt64(max(0, min(seconds, 1e9)) * 1e9) }

    /// The limit in seconds.
    func seconds(of limit: Limit) -> TimeInterval? {
        switch limit {
        case .connect: return connectLimit
        case .idle: return idleLimit
        case .total: return totalLimit
        }
    }
}
