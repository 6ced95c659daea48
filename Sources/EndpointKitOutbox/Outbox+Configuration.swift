import EndpointKit
import Foundation

extension Outbox {
    /// How much an outbox holds and how it retries.
    ///
    /// ```swift
    /// var configuration = Outbox.Configuration()
    /// configuration.maximumEntries = 200
    /// configuration.maximumRetryDelay = 120
    /// let outbox = try Outbox(client: client, directory: folder, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The most entries the outbox holds, waiting and dead letters together; an enqueue past
        /// it throws ``OutboxError/entryLimitReached(_:)``. 1,000 by default.
        public var maximumEntries: Int
        /// The most bytes its entries take on disk (records and bodies); an enqueue past it
        /// throws ``OutboxError/byteLimitReached(_:)``. 100 MiB by default.
        public var maximumBytes: Int64
        /// The wait before the first retry of an entry, in seconds; it doubles with each failure
        /// in a row (with jitter), up to ``maximumRetryDelay``. 1 by default.
        public var initialRetryDelay: TimeInterval
        /// The longest wait between two attempts, in seconds, unless the server's `Retry-After`
        /// asks for longer. 300 by default.
        public var maximumRetryDelay: TimeInterval
        /// The HTTP statuses after which an entry is kept and sent again: 408, 429 and every 5xx
        /// by default. Any other status the client's validation refuses makes it a dead letter.
        /// A server that follows the IETF draft answers 409 while the first request with the key is
        /// still being processed: add 409 for such a server.
        public var retriedStatusCodes: Set<Int>
        /// The monitor whose return to ``/EndpointKit/ConnectivityMonitor/Status/online`` ends a wait early and
        /// whose ``/EndpointKit/ConnectivityMonitor/Status/offline`` holds sending back. `nil` by default: the
        /// client's ``/EndpointKit/APIClient/Configuration/connectivity``, if it has one.
        public var connectivity: ConnectivityMonitor?

        /// Creates the default configuration.
        public init() {
            maximumEntries = 1000
            maximumBytes = 100 << 20
            initialRetryDelay = 1
            maximumRetryDelay = 300
            retriedStatusCodes = Set([408, 429]).union(500...599)
            connectivity = nil
        }
    }
}
