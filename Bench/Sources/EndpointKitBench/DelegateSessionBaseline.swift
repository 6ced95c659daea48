import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hand-written client on the design EndpointKit's transport uses: one session-level delegate
/// that collects each task's bytes and resumes the caller in `didCompleteWithError`.
///
/// Not a baseline a user would write for a GET; a reference that splits EndpointKit's overhead
/// into what URLSession's delegate callbacks cost and what EndpointKit's own code costs.
final class DelegateSessionBaseline: Sendable {
    private let session: URLSession
    private let collector: Collector
    private let baseURL: URL
    private let decoder = JSONDecoder()

    init(baseURL: URL, configuration: URLSessionConfiguration) {
        self.baseURL = baseURL
        let collector = Collector()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.collector = collector
        session = URLSession(configuration: configuration, delegate: collector, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// `GET /model`, decoded.
    func user() async throws -> UserModel {
        let task = session.dataTask(with: URLRequest(url: baseURL.appendingPathComponent("model")))
        let (data, response) = try await withCheckedThrowingContinuation { continuation in
            collector.start(task, continuation)
            task.resume()
        }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw BenchError.requestFailed("URLSession delegate: unexpected response \(response)")
        }
        return try decoder.decode(UserModel.self, from: data)
    }

    /// The session delegate: a registry of tasks in flight, like EndpointKit's `SessionDelegate`.
    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        typealias Waiter = CheckedContinuation<(Data, URLResponse), any Error>
        private struct Transfer {
            let waiter: Waiter
            var data = Data()
        }

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        func start(_ task: URLSessionTask, _ waiter: Waiter) {
            lock.withLock { transfers[task.taskIdentifier] = Transfer(waiter: waiter) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock { transfers[dataTask.taskIdentifier]?.data.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let error {
                transfer.waiter.resume(throwing: error)
            } else if let response = task.response {
                transfer.waiter.resume(returning: (transfer.data, response))
            } else {
                transfer.waiter.resume(throwing: BenchError.requestFailed("no response"))
            }
        }
    }
}
