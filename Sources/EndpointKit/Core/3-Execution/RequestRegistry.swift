/// The requests a client has in flight, by handle identifier. Entries leave when their request
/// completes, so the registry holds only what is running.
final class RequestRegistry: Sendable {
    private let handles = Locked([UInt64: RequestHandle]())

    func insert(_ handle: RequestHandle) { handles.withLock { $0[handle.id] = handle } }

    func remove(_ handle: RequestHandle) { handles.withLock { _ = $0.removeValue(forKey: handle.id) } }

    var all: [RequestHandle] { handles.withLock { Array($0.values) }.sorted { $0.id < $1.id } }
}
