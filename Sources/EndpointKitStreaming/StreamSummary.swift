import EndpointKit

/// What a stream amounted to, once it ended: the value of a successful stream's ``/EndpointKit/APIResult``
/// (closures and delegates), and ``ResponseStream/summary`` after an async loop, however the
/// stream ended.
public struct StreamSummary: Sendable, Hashable {
    /// The body bytes received, over every connection.
    public var bytesReceived: Int64
    /// How many times an event stream reconnected.
    public var reconnects: Int
    /// The last event ID of an event stream; empty when there was none.
    public var lastEventID: String

    /// Creates a summary.
    package init(bytesReceived: Int64 = 0, reconnects: Int = 0, lastEventID: String = "") {
        self.bytesReceived = bytesReceived
        self.reconnects = reconnects
        self.lastEventID = lastEventID
    }
}
