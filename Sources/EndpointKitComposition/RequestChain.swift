@_spi(Internal) import EndpointKit

/// Requests that depend on each other: each step builds the next request from the previous
/// step's value, in the style of YTKNetwork's chain requests.
///
/// ```swift
/// let chain = RequestChain(GetUser(id: 7))
///     .then { user in GetTeam(id: user.teamID) }
///     .then { team in GetProject(id: team.projectID) }
///
/// client.send(chain) { (chain: ChainResult<Project>) in ... }  // closure, on the main actor
/// let project = try await client.value(for: chain)             // async
/// ```
///
/// The chain stops at the first failure and reports that failure as it came (a ``/EndpointKit/ServerFailure``
/// stays a server failure), with the index of the step that failed and the values of the steps
/// before it (``ChainResult``). A step that throws while building its request ends the chain with
/// ``/EndpointKit/TransportError/Reason/requestBuildFailed``, the thrown error as its `underlyingError`.
/// Cancelling the chain's handle (or the awaiting Task) cancels the request in flight and stops
/// the chain. The chain reports exactly once. A chain is a value: send it as often as you like.
public struct RequestChain<Value: Sendable>: Sendable {
    /// Runs the chain with a runner and reports its result.
    typealias Body = @Sendable (ChainRunner, _ finish: @escaping @Sendable (APIResult<Value>) -> Void) -> Void

    let body: Body

    init(body: @escaping Body) {
        self.body = body
    }

    /// Starts a chain with its first request.
    public init<First: APIRequest>(_ first: First) where First.Response == Value {
        body = { runner, finish in runner.send(first, then: finish) }
    }

    /// Adds a step: once the chain so far succeeded, `makeNext` builds the next request from its
    /// value. It runs on an internal queue.
    /// - Parameter makeNext: Builds the next request; throwing ends the chain with
    ///   ``/EndpointKit/TransportError/Reason/requestBuildFailed``.
    /// - Returns: A chain whose value is the new request's response.
    public func then<Next: APIRequest>(
        _ makeNext: @escaping @Sendable (Value) throws -> Next
    ) -> RequestChain<Next.Response> {
        let previous = body
        return RequestChain<Next.Response> { runner, finish in
            previous(runner) { result in
                switch result {
                case .success(let value, _):
                    do {
                        runner.send(try makeNext(value), then: finish)
                    } catch {
                        finish(.transportError(runner.stepFailed(error)))
                    }
                case .serverFailure(let failure): finish(.serverFailure(failure))
                case .transportError(let error): finish(.transportError(error))
                }
            }
        }
    }
}

/// Runs one send of a chain: one request at a time, a handle for the whole chain, one report.
final class ChainRunner: Sendable {
    private struct Steps {
        /// How many steps have been sent.
        var step = 0
        var handle: RequestHandle?
        /// The values of the steps that succeeded, in order.
        var values: [any Sendable] = []
        /// The index of the step whose failure ended the chain.
        var failedStep: Int?
    }

    private let client: APIClient
    private let run: CompositeRun
    private let current = Locked(Steps())

    init(client: APIClient, run: CompositeRun) {
        self.client = client
        self.run = run
    }

    /// Sends the next step's request; `then` hears its result unless the chain ended first.
    func send<Request: APIRequest>(
        _ request: Request, then: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) {
        guard run.handle.isRunning else { return }
        current.withLock { $0.step += 1 }
        let child = client.start(
            request,
            route: .inPlace { [run, current] result in
                guard run.handle.isRunning else { return }
                current.withLock { current in
                    if let value = result.value {
                        current.values.append(value)
                    } else if current.failedStep == nil {
                        current.failedStep = current.step - 1
                    }
                }
                then(result)
            }, options: SendOptions(reportsProgress: false))
        let cancelNow = current.withLock { current -> Bool in
            guard run.handle.isRunning else { return true }
            current.handle = child
            return false
        }
        if cancelNow { child.cancel() }
    }

    /// The failure of a step whose request could not be built because the step threw.
    func stepFailed(_ error: any Error) -> TransportError {
        let step = current.withLock { current -> Int in
            if current.failedStep == nil { current.failedStep = current.step }
            return current.step
        }
        return TransportError(
            .requestBuildFailed, message: "Step \(step + 1) of the chain failed to build its request: \(error)",
            underlyingError: error)
    }

    /// The chain's report for its final `result`.
    func report<Value: Sendable>(_ result: APIResult<Value>, cancelled: Bool = false) -> ChainResult<Value> {
        current.withLock { current in
            ChainResult(
                result: result, failedStep: result.isSuccess || cancelled ? nil : current.failedStep,
                stepValues: current.values)
        }
    }

    /// Cancels the request in flight; its result is ignored.
    func cancelCurrent() {
        current.withLock { $0.handle }?.cancel()
    }
}
