import EndpointKit
import Foundation

/// A ``TransportTask`` that completes exactly once: with the answer, with a timeout at the
/// timeout, or with a cancellation, whichever comes first.
///
/// The test doubles of this module answer through it so that they keep the ``/EndpointKit/Transport``
/// contract (one completion, also after `cancel()`; the idle and total timeouts enforced) like a
/// real transport.
final class CompletionTask: TransportTask, @unchecked Sendable {
    typealias Completion = @Sendable (Result<TransportResponse, TransportError>) -> Void

    private let lock = NSLock()
    private var completion: Completion?
    private var onCancel: (@Sendable () -> Void)?

    init(_ completion: @escaping Completion) { self.completion = completion }

    /// Completes with `result` unless already completed; returns whether this call completed it.
    @discardableResult
    func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let completion = lock.withLock { () -> Completion? in
            defer {
                self.completion = nil
                onCancel = nil
            }
            return self.completion
        }
        completion?(result)
        return completion != nil
    }

    /// Completes with `result` after `delay` seconds of silence, or with a timeout if the idle
    /// or total limit of `timeouts` comes first.
    func finish(
        after delay: TimeInterval, timeouts: Timeouts?,
        with result: @escaping @Sendable () -> Result<TransportResponse, TransportError>
    ) {
        let limits: [(Timeouts.Limit, TimeInterval?)] = [(.idle, timeouts?.idle), (.total, timeouts?.total)]
        let first = limits.compactMap { limit, seconds in seconds.flatMap { $0 > 0 ? (limit, $0) : nil } }
            .min { $0.1 < $1.1 }
        if let (limit, seconds) = first, seconds <= delay {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                finish(.failure(.timedOut(limit, after: seconds)))
            }
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(delay, 0)) { [self] in
            // Skip building the answer (which may read a file) when the task already ended.
            guard isRunning else { return }
            finish(result())
        }
    }

    /// Sets what else a cancel does (for example cancel a wrapped transfer); runs it at once if
    /// the task has already ended.
    func setCancellation(_ action: @escaping @Sendable () -> Void) {
        let ended = lock.withLock { () -> Bool in
            guard completion != nil else { return true }
            onCancel = action
            return false
        }
        if ended { action() }
    }

    var isRunning: Bool { lock.withLock { completion != nil } }

    func cancel() {
        let action = lock.withLock { onCancel }
        if finish(.failure(.cancelled())) { action?() }
    }
}
