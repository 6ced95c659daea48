import Dispatch

/// The one way EndpointKit reaches app code on the main actor: a later turn of the main queue.
///
/// Every closure the library calls back is `@MainActor` and runs here, never inline where the
/// work finished: a send cancelled on the main thread returns before its completion runs, and one
/// cancelled on any other thread (a timer, a transport thread) still completes on main.
package enum MainQueue {
    /// Runs `body` on the main actor, in a later turn of the main queue, in the order of the calls.
    ///
    /// The compiler knows a closure given to `DispatchQueue.main.async` runs on the main actor, so
    /// no run-time isolation check (`MainActor.assumeIsolated`, which older Apple runtimes
    /// back-deploy) stands between the library and app code.
    package static func async(_ body: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { body() }
    }
}
