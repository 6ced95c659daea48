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

extension APIClient.Configuration {
    /// Watches the network; with ``failsFastWhenOffline`` requests fail at once (or are answered
    /// from the cache) while it reports no connection. `nil` by default.
    public var connectivity: ConnectivityMonitor? {
        get { features[ConnectivitySettings.self]?.monitor }
        set { features[ConnectivitySettings.self, default: ConnectivitySettings()].monitor = newValue }
    }

    /// Whether requests fail with ``TransportError/Reason/notConnected`` without trying while
    /// ``connectivity`` reports no connection. `false` by default.
    public var failsFastWhenOffline: Bool {
        get { features[ConnectivitySettings.self]?.failsFast ?? false }
        set { features[ConnectivitySettings.self, default: ConnectivitySettings()].failsFast = newValue }
    }
}

/// The settings behind ``APIClient/Configuration/connectivity`` and
/// ``APIClient/Configuration/failsFastWhenOffline``.
struct ConnectivitySettings: Sendable {
    var monitor: ConnectivityMonitor?
    var failsFast = false
}
