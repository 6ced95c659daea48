import EndpointKit

/// How a chain ended: the last step's result or the first failure, which step failed, and the
/// values of the steps that succeeded before it (YTKNetwork's `requestArray`, kept).
///
/// ```swift
/// let chain = await client.send(RequestChain(GetUser(id: 7)).then { GetTeam(id: $0.teamID) })
/// if let step = chain.failedStep { print("step \(step) failed: \(chain.result)") }
/// let user = chain.stepValues.first as? User       // the first step's value, also after a failure
/// ```
public struct ChainResult<Value: Sendable>: Sendable {
    /// The last step's result, or the failure that stopped the chain.
    public let result: APIResult<Value>
    /// The index (from 0) of the step whose request failed or whose `then` threw; `nil` when the
    /// chain succeeded or was cancelled through its handle or Task.
    public let failedStep: Int?
    /// The value of every step that succeeded, in order (on success, the last one is ``value``).
    public let stepValues: [any Sendable]

    /// Creates a chain result.
    init(result: APIResult<Value>, failedStep: Int?, stepValues: [any Sendable]) {
        self.result = result
        self.failedStep = failedStep
        self.stepValues = stepValues
    }

    /// The last step's value, when the chain succeeded.
    public var value: Value? { result.value }

    /// The failure that stopped the chain, when it did not succeed.
    public var failure: APIFailure? { result.failure }

    /// Whether every step succeeded.
    public var isSuccess: Bool { result.isSuccess }
}
