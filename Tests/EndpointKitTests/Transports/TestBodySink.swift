import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ResponseBodySink`` for transport tests: takes 2xx bodies, holds what it took until
/// ``drain()``, and refuses bytes while it holds `capacity` or more.
final class TestBodySink: ResponseBodySink, @unchecked Sendable {
    private struct State {
        var status: Int?
        var held = Data()
        var drained = Data()
        var refusals = 0
        var resume: (@Sendable () -> Void)?
    }

    private let lock = NSLock()
    private var state = State()
    private let capacity: Int
    /// Called (on the transport's thread) after each piece taken, with everything taken so far.
    private let onReceive: (@Sendable (Data) -> Void)?

    init(capacity: Int = .max, onReceive: (@Sendable (Data) -> Void)? = nil) {
        self.capacity = capacity
        self.onReceive = onReceive
    }

    func begin(_ response: HTTPURLResponse, resume: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            state.status = response.statusCode
            state.resume = resume
        }
        return (200..<300).contains(response.statusCode)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let taken = lock.withLock { () -> Data? in
            guard state.held.count < capacity else {
                state.refusals += 1
                return nil
            }
            state.held.append(contentsOf: bytes)
            return state.drained + state.held
        }
        guard let taken else { return false }
        onReceive?(taken)
        return true
    }

    /// Takes what is held and asks the transport to read on.
    @discardableResult
    func drain() -> Int {
        let (count, resume) = lock.withLock { () -> (Int, (@Sendable () -> Void)?) in
            let count = state.held.count
            state.drained.append(state.held)
            state.held = Data()
            return (count, state.resume)
        }
        resume?()
        return count
    }

    /// The status of the head offered, if any.
    var status: Int? { lock.withLock { state.status } }
    /// Everything taken: drained, then held.
    var received: Data { lock.withLock { state.drained + state.held } }
    /// How many bytes are held.
    var heldCount: Int { lock.withLock { state.held.count } }
    /// How often bytes were refused.
    var refusals: Int { lock.withLock { state.refusals } }
}
