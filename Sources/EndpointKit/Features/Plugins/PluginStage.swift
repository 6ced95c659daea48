import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's ``APIClient/Configuration/plugins`` as a stage: they hear each request that goes
/// on the wire (not an attempt the cache or a fail-fast stage answered, nor a coalesced send
/// that joined an identical transfer in flight), each send's raw outcome, and its result once.
struct PluginStage: RequestStage {
    let plugins: [any APIPlugin]

    var hooks: StageHooks { [.willSend, .didReceive, .didComplete] }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        // Told when the transfer starts: a send that joins an identical one in flight starts none.
        let (plugins, urlRequest) = (plugins, request.urlRequest)
        request.willStart = {
            for plugin in plugins { plugin.willSend(urlRequest, context: context) }
        }
        return nil
    }

    func didReceive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext
    ) {
        for plugin in plugins { plugin.didReceive(outcome, for: request, context: context) }
    }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext, handle: RequestHandle) {
        for plugin in plugins { plugin.didComplete(result, context: context) }
    }
}

/// The feature that gives every send the client's ``PluginStage``.
struct PluginFeature: ClientFeature {
    let stage: PluginStage

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? { stage }
}
