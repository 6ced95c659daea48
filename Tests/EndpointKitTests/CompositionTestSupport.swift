import EndpointKit
import Foundation
import XCTest

// Helpers for the batch, chain, paginator and coalescing tests.

extension LoopbackTestCase {
    /// Waits (bounded) until the client has nothing in flight. A batch or chain reports a cancel at
    /// once; a request it was starting at that very moment is cancelled a moment later.
    func waitUntilNothingInFlight(timeout: TimeInterval = 5) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !client.inFlightRequests.isEmpty {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }
}

/// Counts how many server handlers run at the same time.
final class Gauge: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var peak = 0

    func enter() {
        lock.withLock {
            current += 1
            peak = max(peak, current)
        }
    }

    func leave() { lock.withLock { current -= 1 } }
    var maximum: Int { lock.withLock { peak } }
}

/// A value shared with completion closures.
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
    var value: Value { lock.withLock { stored } }
}
