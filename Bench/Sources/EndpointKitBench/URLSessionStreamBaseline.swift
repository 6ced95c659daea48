import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stream a user would write by hand with URLSession: a session-level delegate that yields
/// each `didReceive data` to an `AsyncThrowingStream` (unbounded: URLSession on Linux cannot be
/// paused), and, for events, a small `text/event-stream` splitter (blank-line blocks, `data:`
/// lines; not the full WHATWG rules).
final class URLSessionStreamBaseline: Sendable {
    private let session: URLSession
    private let delegate: Delegate
    private let baseURL: URL

    init(baseURL: URL, configuration: URLSessionConfiguration) {
        self.baseURL = baseURL
        let delegate = Delegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// The body of `GET path?query` as it arrives; ending the iteration cancels the task.
    func chunks(_ path: String, query: [URLQueryItem] = []) -> AsyncThrowingStream<Data, any Error> {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.queryItems = query.isEmpty ? nil : query
        let url = components?.url ?? baseURL
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let task = session.dataTask(with: URLRequest(url: url))
        delegate.start(task, continuation)
        continuation.onTermination = { _ in task.cancel() }
        task.resume()
        return stream
    }

    /// The `data` of each event of `GET path?query`, until `body` returns `false` or the body ends.
    func events(_ path: String, query: [URLQueryItem] = [], _ body: (String) -> Bool) async throws {
        var pending = Data()
        let blankLine = Data("\n\n".utf8)
        for try await chunk in chunks(path, query: query) {
            pending.append(chunk)
            var start = pending.startIndex
            while let end = pending[start...].range(of: blankLine) {
                var data = ""
                for line in pending[start..<end.lowerBound].split(separator: UInt8(ascii: "\n"))
                where line.starts(with: Data("data:".utf8)) {
                    if !data.isEmpty { data += "\n" }
                    data += String(decoding: line.dropFirst(5).drop { $0 == UInt8(ascii: " ") }, as: UTF8.self)
                }
                start = end.upperBound
                guard body(data) else { return }
            }
            pending.removeSubrange(..<start)
        }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var streams: [Int: AsyncThrowingStream<Data, any Error>.Continuation] = [:]

        func start(_ task: URLSessionTask, _ continuation: AsyncThrowingStream<Data, any Error>.Continuation) {
            lock.withLock { streams[task.taskIdentifier] = continuation }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let ok = (response as? HTTPURLResponse).map { (200..<300).contains($0.statusCode) } ?? false
            if !ok {
                lock.withLock { streams.removeValue(forKey: dataTask.taskIdentifier) }?.finish(
                    throwing: BenchError.requestFailed("URLSession stream: unexpected response \(response)"))
            }
            completionHandler(ok ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            _ = lock.withLock { streams[dataTask.taskIdentifier] }?.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let continuation = lock.withLock { streams.removeValue(forKey: task.taskIdentifier) }
            continuation?.finish(throwing: error)
        }
    }
}
