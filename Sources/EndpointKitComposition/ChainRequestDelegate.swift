import EndpointKit

/// Hears how a chain ended, in the style of YTKNetwork's `YTKChainRequestDelegate`
/// (`chainRequestFinished:` / `chainRequestFailed:failedBaseRequest:`). Both methods have empty
/// defaults, run on the main actor, and receive the chain's handle (the one
/// `APIClient.send(_:delegate:)` returned) so one object can tell several chains apart.
/// Delegates are held weakly.
@MainActor
public protocol ChainRequestDelegate: AnyObject {
    /// Every step succeeded; `values` holds each step's value in order (the last is the chain's).
    func chainRequestFinished(_ chain: RequestHandle, values: [any Sendable])
    /// A step failed (or the chain was cancelled, `step` then `nil`); `values` holds the values
    /// of the steps before it.
    func chainRequestFailed(_ chain: RequestHandle, step: Int?, failure: APIFailure, values: [any Sendable])
}

extension ChainRequestDelegate {
    /// Does nothing.
    public func chainRequestFinished(_ chain: RequestHandle, values: [any Sendable]) {}
    /// Does nothing.
    public func chainRequestFailed(_ chain: RequestHandle, step: Int?, failure: APIFailure, values: [any Sendable]) {}
}
