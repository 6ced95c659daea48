import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts requests in flight for a network activity indicator or a HUD.
///
/// `onStart` runs on the main queue when the count goes from 0 to 1 and `onStop` when it goes
/// back to 0; `onChange` runs on the main queue with every new count. Requests whose
/// ``APIRequest/showsActivityIndicator`` is `false` are not counted. A request counts from its
/// first attempt to its completion, whatever the outcome, including cancel.
public final class ActivityIndicatorPlugin: APIPlugin {
    private let active = Locked(Set<UInt64>())
    private let onChange: @MainActor @Sendable (Int) -> Void
    private let onStart: @MainActor @Sendable () -> Void
    private let onStop: @MainActor @Sendable () -> Void

    /// Creates the plugin.
    /// - Parameters:
    ///   - onStart: Called when the first request starts.
    ///   - onStop: Called when the last request completes.
    ///   - onChange: Called with each new count.
    public init(
        onStart: @escaping @MainActor @Sendable () -> Void = {}, onStop: @escaping @MainActor @Sendable () -> Void = {},
        onChange: @escaping @MainActor @Sendable (Int) -> Void = { _ in }
    ) {
        self.onStart = onStart
        self.onStop = onStop
        self.onChange = onChange
    }

    /// The number of counted requests in flight.
    public var count: Int { active.withLock { $0.count } }

    /// Counts the request on its first attempt.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        guard context.showsActivityIndicator else { return }
        active.withLock { active in
            guard active.insert(context.id).inserted else { return }
            notify(active.count, started: active.count == 1, stopped: false)
        }
    }

    /// Stops counting the request.
    public func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        active.withLock { active in
            guard active.remove(context.id) != nil else { return }
            notify(active.count, started: false, stopped: active.isEmpty)
        }
    }

    /// Called under the lock, so notifications reach the main queue in the order of the counts.
    private func notify(_ count: Int, started: Bool, stopped: Bool) {
        let (onStart, onStop, onChange) = (self.onStart, self.onStop, self.onChange)
        MainQueue.async {
            if started { onStart() }
            onChange(count)
            if stopped { onStop() }
        }
    }
}
