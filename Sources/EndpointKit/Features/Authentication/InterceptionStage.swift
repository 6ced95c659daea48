import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's ``APIClient/Configuration/interceptors`` as a stage: each adapts every attempt in
/// order, and each is asked about a failed attempt in order, before the retrier.
struct InterceptionStage: RequestStage {
    let interceptors: [any RequestInterceptor]

    var hooks: StageHooks { [.adapt, .retry] }

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        for interceptor in interceptors { request = try await interceptor.adapt(request, context: context) }
        return request
    }

    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        for interceptor in interceptors {
            let decision = await interceptor.retry(request, failedWith: failure, context: context)
            if decision != .noOpinion { return decision }
        }
        return .noOpinion
    }
}

/// The feature that gives every send the client's ``InterceptionStage``.
struct InterceptionFeature: ClientFeature {
    let stage: InterceptionStage

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? { stage }
}
