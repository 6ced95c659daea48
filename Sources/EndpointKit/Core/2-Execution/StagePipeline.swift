import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stages of one send (see ``RequestStage``), called at each step of an attempt: on the way
/// out in the order of the client's features, on the way back in reverse order. A step no stage
/// takes part in costs one test of a bit (``StageHooks``), so a send whose features do not apply
/// pays nothing for them.
struct StagePipeline: Sendable {
    private let stages: [any RequestStage]
    /// Every hook some stage implements.
    private let hooks: StageHooks
    /// The stages that adapt requests and those that decide retries, found once.
    private let adapters: [any RequestStage]
    private let retriers: [any RequestStage]

    /// A send with no stage.
    static var empty: StagePipeline { StagePipeline(stages: [], hooks: StageHooks(rawValue: 0)) }

    /// The stages in the order they see an attempt on its way out.
    init(_ stages: [any RequestStage]) {
        var hooks = StageHooks(rawValue: 0)
        for stage in stages { hooks.formUnion(stage.hooks) }
        self.init(stages: stages, hooks: hooks)
    }

    private init(stages: [any RequestStage], hooks: StageHooks) {
        self.stages = stages
        self.hooks = hooks
        adapters = hooks.contains(.adapt) ? stages.filter { $0.hooks.contains(.adapt) } : []
        retriers = hooks.contains(.retry) ? stages.filter { $0.hooks.contains(.retry) } : []
    }

    /// Whether some stage changes requests before they are sent (``adapt(_:context:)``).
    var adaptsRequests: Bool { !adapters.isEmpty }
    /// Whether some stage sees an attempt before it is sent (``prepare(_:sender:context:)``).
    var preparesAttempts: Bool { !hooks.isDisjoint(with: [.willSend, .route]) }
    /// Whether some stage sees an attempt's outcome or result (``receive(_:source:request:context:)``
    /// and ``review(_:response:source:)``).
    var seesOutcomes: Bool { !hooks.isDisjoint(with: [.didReceive, .didProcess]) }
    /// Whether some stage decides retries (``retry(after:request:context:)``).
    var decidesRetries: Bool { !retriers.isEmpty }
    /// Whether some stage may answer a failure (``answer(for:)``): then the request of the last
    /// attempt is kept for that answer.
    var answersFailures: Bool { hooks.contains(.fallback) }
    /// Whether some stage hears the result (``complete(with:context:handle:)``).
    var hearsResults: Bool { hooks.contains(.didComplete) }

    /// The request as the adapting stages leave it, in order.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var adapted = request
        for stage in adapters { adapted = try await stage.adapt(adapted, context: context) }
        return adapted
    }

    /// Lets each stage change the attempt or answer it at once (then later stages are not asked),
    /// and put something in front of `sender`.
    func prepare(
        _ request: inout TransportRequest, sender: inout any AttemptSender, context: RequestContext
    ) -> StageAnswer? {
        for stage in stages {
            let own = stage.hooks
            if own.contains(.willSend), let answer = stage.willSend(&request, context: context) { return answer }
            if own.contains(.route) { sender = stage.route(sender) }
        }
        return nil
    }

    /// Lets each stage, last first, change the transport's outcome and say where it came from.
    func receive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext
    ) {
        for stage in stages.reversed() where stage.hooks.contains(.didReceive) {
            stage.didReceive(&outcome, source: &source, request: request, context: context)
        }
    }

    /// The attempt's result as each stage, last first, leaves it.
    func review<Value: Sendable>(
        _ result: APIResult<Value>, response: TransportResponse?, source: ResponseSource
    ) -> APIResult<Value> {
        var result = result
        for stage in stages.reversed() where stage.hooks.contains(.didProcess) {
            result = stage.didProcess(result, response: response, source: source)
        }
        return result
    }

    /// The first decision other than ``RetryDecision/noOpinion`` of the stages that decide retries.
    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        for stage in retriers {
            let decision = await stage.retry(after: failure, request: request, context: context)
            if decision != .noOpinion { return decision }
        }
        return .noOpinion
    }

    /// The answers the stages give in place of `error`, in order, made only as they are read.
    func answers(for error: TransportError) -> some Sequence<StageAnswer> {
        stages.lazy.filter { $0.hooks.contains(.fallback) }.compactMap { $0.fallback(for: error) }
    }

    /// Tells every stage the request completed with `result`.
    func complete<Value: Sendable>(with result: APIResult<Value>, context: RequestContext, handle: RequestHandle) {
        for stage in stages where stage.hooks.contains(.didComplete) {
            stage.didComplete(result, context: context, handle: handle)
        }
    }
}
