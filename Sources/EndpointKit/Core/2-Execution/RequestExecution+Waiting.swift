import Dispatch
import Foundation

extension RequestExecution {
    /// Runs an asynchronous phase (adapting a request, deciding a retry) in a Task, bounded by the
    /// request's idle timeout (no progress while it works) or its total timeout, whichever is
    /// shorter; `then` runs where responses are processed, unless the send ended meanwhile.
    func runAsyncPhase<Value: Sendable>(
        _ phase: String, operation: @escaping @Sendable () async throws -> Value,
        then: @escaping @Sendable (Result<Value, TransportError>) -> Void
    ) {
        let once = Locked(false)
        let deliver: @Sendable (Result<Value, TransportError>) -> Void = { [self] outcome in
            guard
                once.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            stopWaiting()
            responseThread.hop { [self] in
                guard handle.isRunning else { return }
                then(outcome)
            }
        }
        let limits = [Timeouts.Limit.idle, .total].compactMap { limit in timeouts.seconds(of: limit).map { (limit, $0) }
        }
        if let (limit, seconds) = limits.min(by: { $0.1 < $1.1 }) {
            schedule(after: seconds) {
                let error = TransportError.timedOut(limit, after: seconds)
                deliver(
                    .failure(
                        TransportError(
                            .timedOut, message: "The \(phase) step ran out of time: \(error.message)",
                            timeoutLimit: limit)))
            }
        }
        let task = Task {
            do {
                deliver(.success(try await operation()))
            } catch {
                deliver(
                    .failure(
                        TransportError(
                            .requestBuildFailed, message: "An interceptor failed to \(phase) the request: \(error)",
                            underlyingError: error)))
            }
        }
        handle.withStorage { $0.execution.asyncPhase = task }
        // A cancel that came while the task was being made found nothing to stop: stop it here.
        if !handle.isRunning { task.cancel() }
    }

    /// Runs `action` on the processing queue after `seconds`, replacing any wait in progress.
    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: client.processingQueue)
        source.schedule(deadline: .now() + seconds)
        source.setEventHandler(handler: action)
        let timer = WaitTimer(source)
        let previous = handle.withStorage { storage -> WaitTimer? in
            defer { storage.execution.timer = timer }
            return storage.execution.timer
        }
        previous?.cancel()
        source.resume()
    }
}

/// A send's one timer (a backoff wait or a time limit), held by a class reference: the send's
/// state reads and clears it at every completion, and an optional `any DispatchSourceTimer` (not
/// class-bound on Linux) costs a run-time value-witness call each time where a reference costs a
/// release.
final class WaitTimer {
    private let source: any DispatchSourceTimer

    init(_ source: any DispatchSourceTimer) { self.source = source }

    /// Stops the timer; its handler does not run afterwards.
    func cancel() { source.cancel() }
}
