import EndpointKit

/// Why a batch did not fully succeed: which request failed first, and how.
public struct BatchFailure: Error, Sendable, CustomStringConvertible {
    /// The position of the failed request in the batch, or `nil` when the batch itself was
    /// cancelled (its handle, its Task, or ``/EndpointKit/APIClient/cancelAllRequests()``).
    public let index: Int?
    /// The failure: a "no" from the server, or no usable answer.
    public let failure: APIFailure

    /// Creates a batch failure.
    init(index: Int?, failure: APIFailure) {
        self.index = index
        self.failure = failure
    }

    /// Whether the batch, or the failing request, was cancelled.
    public var isCancelled: Bool {
        if case .transport(let error) = failure { return error.reason == .cancelled }
        return false
    }

    /// `Request #index failed: …`, or `Batch cancelled: …`.
    public var description: String {
        guard let index else { return "Batch cancelled: \(failure)" }
        return "Request #\(index) of the batch failed: \(failure)"
    }
}
