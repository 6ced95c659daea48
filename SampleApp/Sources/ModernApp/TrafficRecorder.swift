import EndpointKit
import Foundation

/// A plugin that records each finished request ("GetMember 200"), for a debug panel. Its hooks
/// run on the library's queues, so what it records is behind a lock. An `NSLock`, as an app at
/// the library's minimums (iOS 16, macOS 13) writes it: `Mutex` needs iOS 18 / macOS 15,
/// `OSAllocatedUnfairLock` is Apple-only, and this sample is also built on Linux in CI.
final class TrafficRecorder: APIPlugin, @unchecked Sendable {  // unchecked: `lock` guards `records`
    private let lock = NSLock()
    private var records: [String] = []

    /// Every record so far, oldest first.
    var lines: [String] { lock.withLock { records } }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        let status = result.metadata.map { "\($0.statusCode)" } ?? "\(result.failure?.statusCode ?? 0)"
        let record = "\(context.endpoint) \(status)"
        lock.withLock { records.append(record) }
    }
}
