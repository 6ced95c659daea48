import EndpointKitTestServer
import Foundation

/// What the server received, from its connection threads (the migration tests' shared helper).
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [TestRequest] = []

    func record(_ request: TestRequest) { lock.withLock { stored.append(request) } }
    var requests: [TestRequest] { lock.withLock { stored } }
}

/// Waits, bounded (10 s), until `condition` holds on the main actor.
@MainActor func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}
