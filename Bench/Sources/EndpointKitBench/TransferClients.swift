import Dispatch
import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `POST /upload` answers: the number of body bytes the server received.
struct UploadReceipt: Decodable, Sendable {
    let received: Int
}

/// `POST /upload`: one file as a multipart part, as a user would declare it (scenario 4).
struct UploadFileRequest: APIRequest {
    typealias Response = UploadReceipt
    let file: URL
    var method: HTTPMethod { .post }
    var path: RequestPath { "/upload" }
    var parameters: RequestParameters {
        var form = MultipartFormData()
        form.append(fileAt: file, name: "file")
        return .multipart(form)
    }
}

/// `GET /download?bytes=N` into a file, as a user would declare it (scenario 4).
struct DownloadFileRequest: DownloadRequest {
    let bytes: Int
    let file: URL
    var path: RequestPath { "/download" }
    var parameters: RequestParameters { .query(["bytes": QueryValue(bytes)]) }
    var destination: DownloadDestination { .file(file, replacingExisting: true) }
}

/// The clients of scenario 4: EndpointKit and what a user would write with URLSession alone.
enum TransferClients {
    /// The longest a transfer may take, in seconds, on both sides.
    static let timeout: TimeInterval = 600

    /// The session configuration of both sides: the other scenarios' one, with a 600 s deadline.
    static func sessionConfiguration() -> URLSessionConfiguration {
        let configuration = BenchClients.sessionConfiguration()
        configuration.timeoutIntervalForResource = timeout
        return configuration
    }

    /// An EndpointKit client whose partial downloads go to `folder`, with a 600 s deadline, on
    /// `transport` (by default a `URLSessionTransport` with the baseline's session configuration).
    static func endpointKit(baseURL: URL, folder: URL, transport: (any Transport)? = nil) -> APIClient {
        let transport = transport ?? URLSessionTransport(configuration: sessionConfiguration())
        var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
        configuration.timeouts.total = timeout
        configuration.partialDownloadsDirectory = folder
        return APIClient(configuration: configuration)
    }
}

/// The hand-written URLSession side of scenario 4: `uploadTask(with:fromFile:)` (the file as the
/// body, no multipart encoding) and `downloadTask(with:)` moving the finished file into place.
final class URLSessionTransferBaseline: Sendable {
    private let session: URLSession
    private let baseURL: URL

    init(baseURL: URL) {
        self.baseURL = baseURL
        session = URLSession(configuration: TransferClients.sessionConfiguration())
    }

    deinit { session.invalidateAndCancel() }

    /// Uploads `file` as the body of `POST /upload`.
    /// - Returns: the number of bytes the server received.
    func upload(_ file: URL) async throws -> Int {
        var request = URLRequest(url: baseURL.appendingPathComponent("upload"))
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.uploadTask(with: request, fromFile: file) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: BenchError.requestFailed("URLSession upload: no response"))
                }
            }.resume()
        }
        try Self.checkStatus(response, "upload")
        return try JSONDecoder().decode(UploadReceipt.self, from: data).received
    }

    /// Downloads `bytes` bytes of `GET /download` to `destination`, replacing it.
    func download(bytes: Int, to destination: URL) async throws {
        var components = URLComponents(url: baseURL.appendingPathComponent("download"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "bytes", value: String(bytes))]
        guard let url = components?.url else { throw BenchError.requestFailed("bad download URL") }
        let response: URLResponse = try await withCheckedThrowingContinuation { continuation in
            session.downloadTask(with: url) { location, response, error in
                // The temporary file is deleted when this handler returns: move it now.
                do {
                    if let error { throw error }
                    guard let location, let response else {
                        throw BenchError.requestFailed("URLSession download: no file or response")
                    }
                    try? FileManager.default.removeItem(at: destination)
                    try FileManager.default.moveItem(at: location, to: destination)
                    continuation.resume(returning: response)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
        try Self.checkStatus(response, "download")
    }

    private static func checkStatus(_ response: URLResponse, _ what: String) throws(BenchError) {
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw .requestFailed("URLSession \(what): unexpected response \(response)")
        }
    }
}

/// A reference for downloads: a session delegate that writes each `didReceive data` chunk to a
/// `FileHandle`, on the design of EndpointKit's transport (one serial delegate queue). It tells
/// what URLSession's delegate path costs on its own.
final class DelegateDownloadReference: Sendable {
    private let session: URLSession
    private let writer: Writer
    private let baseURL: URL

    init(baseURL: URL) {
        self.baseURL = baseURL
        let writer = Writer()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        self.writer = writer
        session = URLSession(
            configuration: TransferClients.sessionConfiguration(), delegate: writer, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Downloads `bytes` bytes of `GET /download` into `destination`, replacing it.
    func download(bytes: Int, to destination: URL) async throws {
        var components = URLComponents(url: baseURL.appendingPathComponent("download"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "bytes", value: String(bytes))]
        guard let url = components?.url else { throw BenchError.requestFailed("bad download URL") }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw BenchError.requestFailed("cannot create \(destination.path)")
        }
        let handle = try FileHandle(forWritingTo: destination)
        defer { try? handle.close() }
        let task = session.dataTask(with: url)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writer.start(task.taskIdentifier, handle: handle, continuation)
            task.resume()
        }
    }

    /// The session delegate: one file per task in flight.
    private final class Writer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct Transfer {
            let handle: FileHandle
            let waiter: CheckedContinuation<Void, any Error>
            var failure: (any Error)?
        }

        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        func start(_ identifier: Int, handle: FileHandle, _ waiter: CheckedContinuation<Void, any Error>) {
            lock.withLock { transfers[identifier] = Transfer(handle: handle, waiter: waiter) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock {
                guard let handle = transfers[dataTask.taskIdentifier]?.handle else { return }
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    transfers[dataTask.taskIdentifier]?.failure = error
                    dataTask.cancel()
                }
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let error = transfer.failure ?? error {
                transfer.waiter.resume(throwing: error)
            } else if let http = task.response as? HTTPURLResponse, (200..<300).contains(http.statusCode) {
                transfer.waiter.resume()
            } else {
                transfer.waiter.resume(
                    throwing: BenchError.requestFailed("delegate download: \(String(describing: task.response))"))
            }
        }
    }
}
