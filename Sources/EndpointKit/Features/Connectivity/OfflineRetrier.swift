import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request again once the network is back, after an attempt failed for want of one
/// (Alamofire's `OfflineRetrier`), as the ``ConnectivityMonitor`` sees it.
///
/// ```swift
/// let monitor = ConnectivityMonitor()
/// let client = APIClient(baseURL: url) {
///     $0.connectivity = monitor
///     $0.failsFastWhenOffline = true                   // optional: do not even try while offline
///     $0.retrier = OfflineRetrier(monitor: monitor, maximumWait: 20, otherwise: RetryPolicy(maxRetries: 3))
/// }
/// ```
///
/// An attempt failed for want of a network when its reason is
/// ``TransportError/Reason/notConnected`` (which is also what ``APIClient/Configuration/failsFastWhenOffline``
/// answers), or ``TransportError/Reason/cannotConnect`` or ``TransportError/Reason/cannotFindHost``
/// while the monitor reports ``ConnectivityMonitor/Status/offline``. With a network, those two
/// mean a server that is down or a name that does not resolve, which waiting does not mend. None of
/// these attempts reached a server, so the request is sent again whatever its method.
///
/// After such a failure the retrier waits until the monitor reports
/// ``ConnectivityMonitor/Status/online`` (not at all if it already does), then answers
/// ``RetryDecision/retry(after:)`` with 0. If the network is not back within `maximumWait` it
/// answers ``RetryDecision/stop``: the request fails with that attempt's failure and the retriers
/// after this one are not asked, since the caller has waited long enough already. A send is waited
/// for once: a later failure for want of a network, and every other failure, gets `otherwise`'s
/// answer (``RetryDecision/noOpinion`` without one).
///
/// Cancelling the request ends the wait at once, and the request completes once, as cancelled.
/// The client bounds every retrier's answer by the request's idle and total timeouts: keep
/// `maximumWait` below them (the idle timeout is 60 seconds by default), or a longer wait ends
/// the request as ``TransportError/Reason/timedOut``.
public struct OfflineRetrier: RequestRetrier {
    /// The monitor whose status says when the network is back.
    let monitor: ConnectivityMonitor
    /// The longest wait for the network, in seconds.
    let maximumWait: TimeInterval
    /// The retrier asked about every failure this one does not wait for, usually a ``RetryPolicy``.
    let otherwise: (any RequestRetrier)?

    /// Creates a retrier that waits for `monitor`.
    /// - Parameters:
    ///   - monitor: The monitor to wait for; usually the client's ``APIClient/Configuration/connectivity``.
    ///   - maximumWait: The longest wait for the network, in seconds; 30 by default. 0 or less
    ///     retries only when the monitor already reports a connection.
    ///   - otherwise: The retrier for the other failures (and for a second failure for want of a
    ///     network); `nil` by default, which has no opinion.
    public init(monitor: ConnectivityMonitor, maximumWait: TimeInterval = 30, otherwise: (any RequestRetrier)? = nil) {
        self.monitor = monitor
        self.maximumWait = maximumWait > 0 ? maximumWait : 0
        self.otherwise = otherwise
    }

    /// Waits for the network after a failure for want of one, the first time in a send; asks
    /// `otherwise` about any other failure.
    /// - Returns: ``RetryDecision/retry(after:)`` with 0 once the monitor reports a connection;
    ///   ``RetryDecision/stop`` when it did not within `maximumWait`; otherwise what
    ///   `otherwise` answers, or ``RetryDecision/noOpinion``.
    public func retry(
        _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
    ) async
        -> RetryDecision
    {
        guard isOffline(failure, status: monitor.status),
            !context.previousFailures.contains(where: { Self.isNetworkReason($0) })
        else {
            return await otherwise?.retry(request, failedWith: failure, context: context) ?? .noOpinion
        }
        if monitor.status == .online { return .retry(after: 0) }
        let back = await waitForConnection()
        if Task.isCancelled { return .noOpinion }
        return back ? .retry(after: 0) : .stop
    }

    /// Whether `failure` means there was no network.
    private func isOffline(_ failure: APIFailure, status: ConnectivityMonitor.Status) -> Bool {
        guard case .transport(let error) = failure else { return false }
        switch error.reason {
        case .notConnected: return true
        case .cannotConnect, .cannotFindHost: return status == .offline
        default: return false
        }
    }

    /// Whether an earlier failure had one of the reasons this retrier waits after.
    private static func isNetworkReason(_ failure: APIFailure) -> Bool {
        guard case .transport(let error) = failure else { return false }
        return [.notConnected, .cannotConnect, .cannotFindHost].contains(error.reason)
    }

    /// `true` once the monitor reports a connection; `false` after `maximumWait`, or at once when
    /// the calling Task is cancelled.
    private func waitForConnection() async -> Bool {
        let monitor = monitor
        let nanoseconds = Timeouts.nanoseconds(maximumWait)
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                // `updates` starts with the current status, so a change made before this is not missed.
                for await status in monitor.updates where status == .online { return true }
                return false  // the Task was cancelled
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: nanoseconds)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
