import EndpointKit
import Synchronization

/// A plugin that records each finished request ("GetMember 200"), for a debug panel. Its hooks
/// run on the library's queues, so what it records is behind a lock.
final class TrafficRecorder: APIPlugin {
    private let records = Mutex<[String]>([])

    /// Every record so far, oldest first.
    var lines: [String] { records.withLock { $0 } }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        let status = result.metadata.map { "\($0.statusCode)" } ?? "\(result.failure?.statusCode ?? 0)"
        records.withLock { $0.append("\(context.endpoint) \(status)") }
    }
}
