#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the one place shared mutable state lives.
///
/// One allocation holds the value and its `pthread_mutex_t` (a `ManagedBuffer`), and the value is
/// reached through a pointer, so taking the lock costs no extra object and no dynamic exclusivity
/// check. `Mutex` from Synchronization would do, but it needs macOS 15 / iOS 18, and on Linux
/// ThreadSanitizer does not see its futex-based ordering.
package struct Locked<Value>: @unchecked Sendable {
    private let storage: Storage

    package init(_ value: Value) { storage = Storage.make(value) }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// A copy of the value.
    package var current: Value { withLock { $0 } }

    /// The value (header) and the mutex (the single element).
    final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        static func make(_ value: Value) -> Storage {
            let buffer = create(minimumCapacity: 1) { _ in value }
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutex, nil)
            }
            // `create` on a subclass returns an instance of that subclass.
            return unsafeDowncast(buffer, to: Storage.self)
        }

        // The header (the value) is a stored property, destroyed with the object; the mutex is not.
        deinit {
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                _ = mutex.deinitialize(count: 1)
            }
        }
    }
}
