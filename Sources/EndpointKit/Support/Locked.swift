import Foundation

/// A value behind a lock: the one place shared mutable state lives.
///
/// `Mutex` from Synchronization would do, but it needs macOS 15 / iOS 18; this works everywhere.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    var current: Value { withLock { $0 } }
}
