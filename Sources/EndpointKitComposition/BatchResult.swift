import EndpointKit

/// How a batch ended: every request's own ``/EndpointKit/APIResult``, in the order given, and the failure
/// that decided the batch's outcome.
///
/// `Results` is a tuple of typed results for a batch of different requests, or an array for a
/// batch of one request type:
///
/// ```swift
/// let batch = await client.batch(GetUser(id: 7), GetFeed(), GetAds())
/// let (user, feed, ads) = batch.results            // APIResult<User>, APIResult<[Post]>, APIResult<[Ad]>
/// let (u, f, a) = try batch.values()               // the values, or the batch's failure
/// ```
public struct BatchResult<Results: Sendable>: Sendable {
    /// Every request's own result, in order. Requests the batch cancelled or never started report
    /// ``/EndpointKit/TransportError/Reason/cancelled``.
    public let results: Results
    /// `nil` when every request succeeded. Otherwise, with ``BatchPolicy/failFast`` the failure
    /// that stopped the batch; with ``BatchPolicy/keepPartial`` the failure of the first failed
    /// request by position; for a cancelled batch, the cancellation (index `nil`).
    public let failure: BatchFailure?

    /// Creates a batch result.
    init(results: Results, failure: BatchFailure?) {
        self.results = results
        self.failure = failure
    }

    /// Whether every request succeeded.
    public var isSuccess: Bool { failure == nil }
}

extension BatchResult {
    /// The values of a batch of different requests, in order.
    /// - Throws: ``failure`` when a request did not succeed.
    public func values<each Value: Sendable>() throws(BatchFailure) -> (repeat each Value)
    where Results == (repeat APIResult<each Value>) {
        if let failure { throw failure }
        return (repeat try Self.value(of: each results))
    }

    /// The values of a batch of one request type, in order.
    /// - Throws: ``failure`` when a request did not succeed.
    public func values<Value: Sendable>() throws(BatchFailure) -> [Value] where Results == [APIResult<Value>] {
        if let failure { throw failure }
        return try results.enumerated().map { (index, result) throws(BatchFailure) in
            try Self.value(of: result, at: index)
        }
    }

    private static func value<Value>(of result: APIResult<Value>, at index: Int? = nil) throws(BatchFailure) -> Value {
        switch result {
        case .success(let value, _): return value
        case .serverFailure(let failure): throw BatchFailure(index: index, failure: .server(failure))
        case .transportError(let error): throw BatchFailure(index: index, failure: .transport(error))
        }
    }
}
