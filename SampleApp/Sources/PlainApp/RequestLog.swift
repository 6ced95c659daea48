import EndpointKit
import Foundation

/// A plugin that keeps one line per finished request ("GetProfile 200", "GetProfile 200 cached"),
/// for a debug screen.
/// Its hooks run on the library's queues, so the lines are behind a lock. An `NSLock`, as an app
/// at the library's minimums (iOS 16, macOS 13) writes it: `Mutex` needs iOS 18 / macOS 15,
/// `OSAllocatedUnfairLock` is Apple-only, and this sample is also built on Linux in CI.
final class RequestLog: APIPlugin, @unchecked Sendable {  // unchecked: `lock` guards `entries`
    private let lock = NSLock()
    private var entries: [String] = []

    /// Every line so far, oldest first.
    var lines: [String] { lock.withLock { entries } }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        let outcome: String
        switch result {
        case .success(_, let metadata):
            outcome = "\(metadata.statusCode)" + (metadata.source == .network ? "" : " cached")
        case .serverFailure(let failure): outcome = "\(failure.statusCode)"
        case .transportError(let error): outcome = "\(error.reason)"
        }
        let line = "\(context.endpoint) \(outcome)"
        lock.withLock { entries.append(line) }
    }
}
