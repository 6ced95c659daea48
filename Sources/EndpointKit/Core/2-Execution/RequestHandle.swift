import Foundation

/// A request in flight: cancel it, or ask whether it is still running.
///
/// Every send returns one. The request completes exactly once, whichever comes first: the
/// response, a failure, the deadline or ``cancel()``.
public final class RequestHandle: Sendable, Hashable, CustomStringConvertible {
    /// Where a request is in its life.
    public enum State: Sendable, Hashable {
        /// Sent, not yet complete.
        case running
        /// Completed with a response or an error (success, server failure or transport error).
        case completed
        /// Cancelled before it completed; it completed with ``TransportError/Reason/cancelled``.
        case cancelled
    }

    /// What the handle keeps under its lock. The send's own bookkeeping (``ExecutionState``) is
    /// kept here too, so that a send and its handle share one lock and one object, and a phase
    /// that checks the handle and updates the send takes the lock once.
    struct Storage {
        var state = State.running
        var transportTask: (any TransportTask)?
        var onCancel: (@Sendable () -> Void)?
        var discardPartial = false
        /// Made for sends that report progress, or when first asked for.
        var reporter: ProgressReporter?
        /// The send's state; empty for a handle that no ``RequestExecution`` runs.
        var execution = ExecutionState()

        /// Whether the request is still running.
        var isRunning: Bool { state == .running }

        /// Marks the request completed; `false` if it had already completed or been cancelled.
        mutating func markCompleted() -> Bool {
            guard state == .running else { return false }
            state = .completed
            transportTask = nil
            onCancel = nil
            return true
        }
    }

    private static let counter = Locked<UInt64>(0)

    /// A number unique among this process's handles.
    public let id: UInt64
    /// The request's tag, if it has one.
    public let tag: String?
    /// The endpoint's type name, for example `"GetUser"`.
    public var endpoint: String { endpointType.map { _typeName($0, qualified: false) } ?? endpointName }
    /// The endpoint's type, named when asked for (most sends never ask: about 300 instructions saved).
    private let endpointType: Any.Type?
    private let endpointName: String
    private let storage: Locked<Storage>
    /// Where ``RequestRegistry`` keeps this handle (-1: not registered). Read and written only
    /// under that registry's lock.
    nonisolated(unsafe) var registryIndex = -1

    /// - Parameter reportsProgress: Whether the transfer's progress is published (the handle is
    ///   given to the caller); otherwise a reporter is made only when asked for, and hears only
    ///   the completion.
    convenience init(tag: String? = nil, endpoint: String = "", reportsProgress: Bool = true) {
        self.init(tag: tag, endpointType: nil, endpointName: endpoint, reportsProgress: reportsProgress)
    }

    /// A handle for a send of an endpoint of type `endpointType` (named by its type name).
    convenience init(tag: String?, endpointType: Any.Type, reportsProgress: Bool) {
        self.init(tag: tag, endpointType: endpointType, endpointName: "", reportsProgress: reportsProgress)
    }

    private init(tag: String?, endpointType: Any.Type?, endpointName: String, reportsProgress: Bool) {
        storage = Locked(Storage(reporter: reportsProgress ? ProgressReporter() : nil))
        id = Self.counter.withLock {
            $0 += 1
            return $0
        }
        self.tag = tag
        self.endpointType = endpointType
        self.endpointName = endpointName
    }

    /// The publisher of this send's progress, made when first asked for.
    var progressReporter: ProgressReporter {
        storage.withLock { storage in
            if let reporter = storage.reporter { return reporter }
            let reporter = ProgressReporter()
            storage.reporter = reporter
            return reporter
        }
    }

    /// Whether a cancel should also delete a resumable download's partial file.
    var discardsPartialDownload: Bool { storage.withLock { $0.discardPartial } }

    /// Cancels the request and deletes the partial file of a resumable download, so the next send
    /// starts from zero. For other requests this is ``cancel()``.
    package func cancelDiscardingPartialDownload() {
        storage.withLock { $0.discardPartial = true }
        cancel()
    }

    /// The current state.
    public var state: State { storage.withLock { $0.state } }

    /// Whether the request is still running.
    package var isRunning: Bool { state == .running }

    /// Cancels the request. It completes at once with ``TransportError/Reason/cancelled``
    /// (closure, delegate and async caller are all told); does nothing if it already completed.
    public func cancel() {
        let actions = storage.withLock { storage -> (task: (any TransportTask)?, onCancel: (@Sendable () -> Void)?)? in
            guard storage.state == .running else { return nil }
            storage.state = .cancelled
            defer {
                storage.transportTask = nil
                storage.onCancel = nil
            }
            return (storage.transportTask, storage.onCancel)
        }
        guard let actions else { return }
        actions.task?.cancel()
        actions.onCancel?()
    }

    /// Sets what cancelling does; called once before the request starts.
    ///
    /// A handle cancelled before it started (a send prepared now and started later) runs
    /// `onCancel` at once, so it still completes as cancelled.
    func setCancellation(_ onCancel: @escaping @Sendable () -> Void) {
        let cancelledAlready = storage.withLock { storage -> Bool in
            guard storage.state == .running else { return storage.state == .cancelled }
            storage.onCancel = onCancel
            return false
        }
        if cancelledAlready { onCancel() }
    }

    /// Attaches the transport task; cancels it at once if the handle was already cancelled.
    func attach(_ task: any TransportTask) {
        let cancelNow = storage.withLock { storage -> Bool in
            guard storage.state == .running else { return true }
            storage.transportTask = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Marks the request completed; `false` if it had already completed or been cancelled, in
    /// which case the caller must not deliver anything.
    func markCompleted() -> Bool {
        storage.withLock { $0.markCompleted() }
    }

    /// Runs `body` under the handle's lock: for a send that reads or changes its handle and its
    /// own state together.
    @inline(__always)
    func withStorage<Result>(_ body: (inout Storage) -> Result) -> Result {
        storage.withLock(body)
    }

    /// Identity equality.
    public static func == (lhs: RequestHandle, rhs: RequestHandle) -> Bool { lhs === rhs }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `RequestHandle #id (state)`.
    public var description: String {
        "RequestHandle #\(id) \(endpoint)\(tag.map { " [\($0)]" } ?? "") (\(state))"
    }
}

/// The requests a client has in flight, by handle identifier. Entries leave when their request
/// completes, so the registry holds only what is running.
final class RequestRegistry: Sendable {
    /// A handle's place is its index in `handles`; freed places are reused. No hashing: a send
    /// registers and leaves once each, and only the listing (rare) walks every place.
    private struct Places {
        var handles: [RequestHandle?] = []
        var free: [Int] = []
    }

    private let places = Locked(Places())

    func insert(_ handle: RequestHandle) {
        places.withLock { places in
            if let index = places.free.popLast() {
                places.handles[index] = handle
                handle.registryIndex = index
            } else {
                handle.registryIndex = places.handles.count
                places.handles.append(handle)
            }
        }
    }

    func remove(_ handle: RequestHandle) {
        places.withLock { places in
            let index = handle.registryIndex
            guard index >= 0, index < places.handles.count, places.handles[index] === handle else { return }
            places.handles[index] = nil
            places.free.append(index)
            handle.registryIndex = -1
        }
    }

    var all: [RequestHandle] { places.withLock { $0.handles.compactMap { $0 } }.sorted { $0.id < $1.id } }
}
