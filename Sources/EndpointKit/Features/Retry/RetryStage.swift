import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The retrier a send asks last: the request's ``APIRequest/retrier``, else the client's
/// ``APIClient/Configuration/retrier``.
struct RetryStage: RequestStage {
    let retrier: any RequestRetrier

    var hooks: StageHooks { .retry }

    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        await retrier.retry(request, failedWith: failure, context: context)
    }
}

/// The feature that gives each send the ``RetryStage`` of its retrier, when it has one.
struct RetryFeature: ClientFeature {
    /// The client's retrier as a stage, made once.
    let clientStage: RetryStage?

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? {
        if let own = request.retrier { return RetryStage(retrier: own) }
        return clientStage
    }
}
