import Dispatch

/// Where one send's result goes, and the thread it is handed over on: the hop from the library's
/// threads to app code, named in one place.
///
/// The closure runs first, then the delegates (on the main actor): in the same turn of the main
/// queue when the closure runs on the main actor, in a later one otherwise.
package enum ResultDelivery<Request: APIRequest> {
    /// Where the closure runs.
    package enum Route: Sendable {
        /// On the main actor, in a later turn of the main queue: every closure form's default.
        case mainActor(@MainActor @Sendable (APIResult<Request.Response>) -> Void)
        /// On a queue the caller chose (``APIClient/send(_:info:on:progress:completion:)``).
        case queue(DispatchQueue, @Sendable (APIResult<Request.Response>) -> Void)
        /// Where the send completes, for an awaiting caller that resumes on its own executor.
        case inPlace(@Sendable (APIResult<Request.Response>) -> Void)
    }

    /// Hands `result` over as `route` says, then tells `delegates` (held weakly); called once per
    /// send, from any thread.
    static func deliver(
        _ result: APIResult<Request.Response>, for request: Request, route: Route,
        delegates: [WeakReference<any APIRequestDelegate>]
    ) {
        // An awaited send (in place, no delegate): handed on without a copy.
        guard !delegates.isEmpty || !route.isInPlace else {
            if case .inPlace(let closure) = route { closure(result) }
            return
        }
        deliverElsewhere(result, for: request, route: route, delegates: delegates)
    }

    /// The closure forms and delegates: out of line, so the path above looks up no metadata for
    /// the result's type.
    @inline(never)
    private static func deliverElsewhere(
        _ result: APIResult<Request.Response>, for request: Request, route: Route,
        delegates: [WeakReference<any APIRequestDelegate>]
    ) {
        let tellDelegates: @MainActor @Sendable () -> Void = {
            for delegate in delegates { delegate.value?.receive(result, for: request) }
        }
        switch route {
        case .mainActor(let closure):
            MainQueue.async {
                closure(result)
                tellDelegates()
            }
        case .queue(let queue, let closure):
            queue.async {
                closure(result)
                if !delegates.isEmpty { MainQueue.async(tellDelegates) }
            }
        case .inPlace(let closure):
            closure(result)
            if !delegates.isEmpty { MainQueue.async(tellDelegates) }
        }
    }
}

extension ResultDelivery.Route {
    /// Whether the result is handed over where the send completes.
    var isInPlace: Bool {
        if case .inPlace = self { return true }
        return false
    }
}
