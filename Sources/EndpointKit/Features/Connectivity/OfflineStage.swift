import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fails an attempt at once, without trying, while the client's ``ConnectivityMonitor`` reports no
/// network (``APIClient/Configuration/failsFastWhenOffline``). The cache may still answer the
/// failure with a stale entry.
struct OfflineStage: RequestStage {
    let monitor: ConnectivityMonitor

    var hooks: StageHooks { .willSend }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        guard monitor.status == .offline else { return nil }
        return .failure(TransportError(.notConnected, message: "The connectivity monitor reports no network."))
    }
}

/// The feature that gives every send the ``OfflineStage`` of the client's monitor.
struct OfflineFeature: ClientFeature {
    let stage: OfflineStage

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? { stage }
}
