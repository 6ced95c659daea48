import EndpointKit
import Foundation

/// How an event stream reconnects when the server closes it or the connection drops, as
/// `EventSource` does: after a wait (the server's `retry:` once it sent one), sending the
/// `Last-Event-ID` it got to, with a growing wait while reconnections bring no event.
///
/// A stream reconnects only once it was established (a first connection that fails is the
/// retrier's business, see ``/EndpointKit/APIRequest/retrier``). It ends instead on a status the validation
/// does not accept, on a `204 No Content` (the server's way to say "stop"), when cancelled, or
/// after ``maximumReconnects``.
///
/// ```swift
/// var reconnection: StreamReconnection { StreamReconnection(delay: 1, maximumReconnects: 10) }
/// ```
public struct StreamReconnection: Sendable, Hashable {
    /// The wait before reconnecting until the server sets its own with `retry:`, in seconds.
    /// 3 by default.
    public var delay: TimeInterval
    /// How much longer each wait is than the one before while reconnections bring no event.
    /// 2 by default.
    public var backoffMultiplier: Double
    /// The longest wait, in seconds. 60 by default.
    public var maximumDelay: TimeInterval
    /// The most reconnections over the stream's life; `nil` (the default) for no limit.
    public var maximumReconnects: Int?

    /// Creates a reconnection policy.
    /// - Parameters:
    ///   - delay: The first wait, until the server sends `retry:`; 3 seconds by default.
    ///   - backoffMultiplier: The growth of the wait while reconnections bring nothing; 2 by
    ///     default.
    ///   - maximumDelay: The longest wait; 60 seconds by default.
    ///   - maximumReconnects: The most reconnections; no limit by default.
    public init(
        delay: TimeInterval = 3, backoffMultiplier: Double = 2, maximumDelay: TimeInterval = 60,
        maximumReconnects: Int? = nil
    ) {
        self.delay = max(0, delay)
        self.backoffMultiplier = max(1, backoffMultiplier)
        self.maximumDelay = max(0, maximumDelay)
        self.maximumReconnects = maximumReconnects.map { max(0, $0) }
    }

    /// Reconnects after 3 seconds, doubling up to 60 while nothing comes, with no limit.
    public static let `default` = StreamReconnection()
    /// Never reconnects: the stream ends when its connection does.
    public static let never = StreamReconnection(maximumReconnects: 0)

    /// The wait before a reconnection: `base`, multiplied by ``backoffMultiplier`` for each
    /// reconnection in a row that brought no event, up to ``maximumDelay`` (or `base`, if the
    /// server asked for more).
    /// - Parameters:
    ///   - base: The server's reconnection time (`retry:`), or ``delay``.
    ///   - quietReconnections: The reconnections in a row that brought no event.
    package func wait(base: TimeInterval, quietReconnections: Int) -> TimeInterval {
        var wait = base
        for _ in 0..<min(quietReconnections, 64) where wait < maximumDelay { wait *= backoffMultiplier }
        return min(wait, max(maximumDelay, base))
    }
}
