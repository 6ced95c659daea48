import EndpointKit
import Synchronization

/// A plugin that keeps one line per finished request ("GetProfile 200", "GetProfile 200 cached"),
/// for a debug screen.
/// Its hooks run on the library's queues, so the lines are behind a lock.
final class RequestLog: APIPlugin {
    private let entries = Mutex<[String]>([])

    /// Every line so far, oldest first.
    var lines: [String] { entries.withLock { $0 } }

    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        let outcome: String
        switch result {
        case .success(_, let metadata):
            outcome = "\(metadata.statusCode)" + (metadata.source == .network ? "" : " cached")
        case .serverFailure(let failure): outcome = "\(failure.statusCode)"
        case .transportError(let error): outcome = "\(error.reason)"
        }
        entries.withLock { $0.append("\(context.endpoint) \(outcome)") }
    }
}
