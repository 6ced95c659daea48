import Foundation

/// A value guarded by a lock, with the ability to wait until the value satisfies a condition.
///
/// `@unchecked Sendable` is sound here: `value` is private and only reachable through `withLock`,
/// `mutate` and `wait`, each of which holds `condition` (a pthread mutex + condition variable) for
/// the whole access, so no two threads ever touch `value` at the same time. `Value` itself must be
/// `Sendable`, so nothing non-sendable can be smuggled across threads through the box.
/// (`Synchronization.Mutex` would avoid the `@unchecked`, but needs macOS 15 while the package
/// supports macOS 13, and it has no condition variable.)
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Reads or changes the value under the lock without waking waiters.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body(&value)
    }

    /// Changes the value under the lock and wakes every thread blocked in `wait(until:_:)`.
    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Blocks until `predicate` holds for the value or `deadline` passes.
    /// - Returns: whether the predicate held when the wait ended.
    func wait(until deadline: Date, _ predicate: (Value) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !predicate(value) {
            if !condition.wait(until: deadline) {
                return predicate(value)
            }
        }
        return true
    }

    /// Starts a thread named `name` running `body`; `count` adds 1 to the value before it starts
    /// and takes 1 away when it ends, so that ``wait(until:_:)`` can tell when every thread is gone.
    func startThread(
        named name: String, counting count: @escaping @Sendable (inout Value, Int) -> Void,
        _ body: @escaping @Sendable () -> Void
    ) {
        mutate { count(&$0, 1) }
        let thread = Thread { [self] in
            body()
            mutate { count(&$0, -1) }
        }
        thread.name = name
        thread.start()
    }
}
