import Dispatch

/// Runs a cancel from a Task's cancellation handler on another thread.
///
/// The runtime holds the Task's status lock while its cancellation handler runs. A cancel that
/// completes the work synchronously takes the lock of what the Task waits on (an awaited send's
/// caller, a stream's channel), and a thread delivering to that Task at the same moment holds
/// that lock while it resumes the Task, which needs the status lock: a deadlock. Handed off, the
/// cancel completes the work just after, once, as cancelled.
package enum TaskCancellationHandoff {
    /// Runs `cancel` soon, on a global queue.
    package static func cancel(_ cancel: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: cancel)
    }
}
