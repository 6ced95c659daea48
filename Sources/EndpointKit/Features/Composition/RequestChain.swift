/// Requests that depend on each other: each step builds the next request from the previous
/// step's value, in the style of YTKNetwork's chain requests.
///
/// ```swift
/// let chain = RequestChain(GetUser(id: 7))
///     .then { user in GetTeam(id: user.teamID) }
///     .then { team in GetProject(id: team.projectID) }
///
/// client.send(chain) { (result: APIResult<Project>) in ... }   // closure, on the main actor
/// let project = try await client.value(for: chain)             // async
/// ```
///
/// The chain stops at the first failure and reports that failure as it came (a ``ServerFailure``
/// stays a server failure). A step that throws while building its request ends the chain with
/// ``TransportError/Reason/requestBuildFailed``, the thrown error as its `underlyingError`.
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
    ///   ``TransportError/Reason/requestBuildFailed``.
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
    private let client: APIClient
    private let run: CompositeRun
    private let current = Locked<(step: Int, handle: RequestHandle?)>((0, nil))

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
        let child = client.perform(
            request,
            route: .inPlace { [run] result in
                guard run.handle.isRunning else { return }
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
        let step = current.withLock { $0.step } + 1
        return TransportError(
            .requestBuildFailed, message: "Step \(step) of the chain failed to build its request: \(error)",
            underlyingError: error)
    }

    /// Cancels the request in flight; its result is ignored.
    func cancelCurrent() {
        current.withLock { $0.handle }?.cancel()
    }
}
