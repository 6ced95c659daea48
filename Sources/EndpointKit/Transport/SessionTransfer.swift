import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One task of ``URLSessionTransport``: collects the body (memory or download file), reports
/// progress, and completes exactly once, whichever comes first of the task's end, a cancel, the
/// deadline, the size cap or a file error.
final class SessionTransfer: TransportTask, @unchecked Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var writer: ResponseBodyWriter
        var progress = TransferProgress()
        var isFinished = false
        var challengeCancelled = false
        var timer: (any DispatchSourceTimer)?
    }

    private let task: URLSessionTask
    private let url: URL?
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    private let onProgress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>
    private let onFinish: @Sendable () -> Void

    private static let timerQueue = DispatchQueue(label: "EndpointKit.deadlines")

    init(
        task: URLSessionTask, request: TransportRequest, onFinish: @escaping @Sendable () -> Void,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) {
        self.onFinish = onFinish
        self.task = task
        url = request.urlRequest.url
        onProgress = request.onProgress
        self.completion = completion
        state = Locked(
            State(writer: ResponseBodyWriter(limit: request.maximumResponseSize, download: request.download)))
    }

    func armDeadline(after seconds: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
        timer.schedule(deadline: .now() + max(0, seconds))
        timer.setEventHandler { [weak self] in
            self?.fail(
                TransportError(.timedOut, message: "The request did not finish within its \(seconds) s deadline."))
        }
        state.withLock { $0.timer = timer }
        timer.resume()
    }

    /// Cancels the transfer; completes with `cancelled` unless already finished.
    func cancel() { fail(.cancelled()) }

    /// Ends the transfer with `error` now and cancels the underlying task.
    func fail(_ error: TransportError) {
        if finish(.failure(error)) { task.cancel() }
    }

    func didReceive(response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail(TransportError(.badResponse, message: "The response is not an HTTP response."))
            return false
        }
        let outcome = state.withLock { state -> Result<TransferProgress, TransportError> in
            do throws(TransportError) {
                try state.writer.begin(http)
            } catch {
                return .failure(error)
            }
            state.response = http
            state.progress.bytesReceived = state.writer.received
            state.progress.totalBytesToReceive = state.writer.expectedTotal
            return .success(state.progress)
        }
        switch outcome {
        case .success(let progress):
            onProgress?(progress)
            return true
        case .failure(let error):
            fail(error)
            return false
        }
    }

    func didReceive(data: Data) {
        let outcome = state.withLock { state -> Result<TransferProgress, TransportError>? in
            guard !state.isFinished else { return nil }
            do throws(TransportError) {
                try state.writer.append(data)
            } catch {
                return .failure(error)
            }
            state.progress.bytesReceived = state.writer.received
            return .success(state.progress)
        }
        switch outcome {
        case .success(let progress)?: onProgress?(progress)
        case .failure(let error)?: fail(error)
        case nil: break
        }
    }

    func didSend(totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let progress = state.withLock { state -> TransferProgress? in
            guard !state.isFinished, totalBytesSent > state.progress.bytesSent else { return nil }
            state.progress.bytesSent = totalBytesSent
            state.progress.totalBytesToSend = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
            return state.progress
        }
        if let progress { onProgress?(progress) }
    }

    /// Records that an authentication challenge was refused, so the `cancelled` error that follows
    /// is reported as the 401/407 response it really is.
    func didRefuseChallenge() { state.withLock { $0.challengeCancelled = true } }

    func didComplete(error: (any Error)?) {
        let (response, refused) = state.withLock { ($0.response, $0.challengeCancelled) }
        if let error, !(refused && response != nil && (error as? URLError)?.code == .cancelled) {
            finish(.failure(TransportError(urlSessionError: error, url: url)))
            return
        }
        guard let response else {
            finish(
                .failure(TransportError(.badResponse, message: "The server closed the connection without a response.")))
            return
        }
        let body = state.withLock { state -> Result<(data: Data, fileURL: URL?), TransportError> in
            do throws(TransportError) {
                return .success(try state.writer.finish())
            } catch {
                return .failure(error)
            }
        }
        switch body {
        case .success(let body):
            finish(.success(TransportResponse(response: response, data: body.data, fileURL: body.fileURL)))
        case .failure(let error):
            finish(.failure(error))
        }
    }

    @discardableResult
    private func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let (won, timer) = state.withLock { state -> (Bool, (any DispatchSourceTimer)?) in
            guard !state.isFinished else { return (false, nil) }
            state.isFinished = true
            let timer = state.timer
            state.timer = nil
            if case .failure = result { state.writer.abandon() }
            state.writer = ResponseBodyWriter(limit: 0, download: nil)
            return (true, timer)
        }
        guard won else { return false }
        timer?.cancel()
        onFinish()
        completion(result)
        return true
    }
}
