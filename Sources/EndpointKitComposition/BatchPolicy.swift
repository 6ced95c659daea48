import EndpointKit

/// What a batch does when one of its requests fails.
public enum BatchPolicy: Sendable, Hashable {
    /// Every request runs to its own end and keeps its own typed result, in order; the batch
    /// reports the failure of the first failed request (by position) as its
    /// ``BatchResult/failure``.
    case keepPartial
    /// The first failure cancels every request still running or waiting (they report
    /// ``/EndpointKit/TransportError/Reason/cancelled``) and ends the batch with that failure, as YTKNetwork's
    /// batch requests do.
    case failFast
}
