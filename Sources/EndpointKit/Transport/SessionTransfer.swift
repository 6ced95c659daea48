import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One data task of ``URLSessionTransport``: collects the body and completes exactly once,
/// whichever comes first of the task's end, a cancel, the deadline or the size cap.
final class SessionTransfer: TransportTask, @unchecked Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var data = Data()
        var isFinished = false
        var challengeCancelled = false
        var timer: (any DispatchSourceTimer)?
    }

    private let task: URLSessionTask
    private let url: URL?
    private let limit: Int
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    private let state = Locked(State())
    private let onFinish: @Sendable () -> Void

    private static let timerQueue = DispatchQueue(label: "EndpointKit.deadlines")

    init(
        task: URLSessionTask, url: URL?, limit: Int, onFinish: @escaping @Sendable () -> Void,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) {
        self.onFinish = onFinish
        self.task = task
        self.url = url
        self.limit = limit
        self.completion = completion
    }

    func armDeadline(after seconds: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: Self.timerQueue)
        timer.schedule(deadline: .now() + max(0, seconds))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.fail(
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
        let expected = response.expectedContentLength
        if expected > Int64(limit) {
            fail(tooLarge())
            return false
        }
        state.withLock { state in
            state.response = http
            if expected > 0 { state.data.reserveCapacity(Int(expected)) }
        }
        return true
    }

    func didReceive(data: Data) {
        let overLimit = state.withLock { state -> Bool in
            guard !state.isFinished else { return false }
            if state.data.count + data.count > limit { return true }
            state.data.append(data)
            return false
        }
        if overLimit { fail(tooLarge()) }
    }

    /// Records that an authentication challenge was refused, so the `cancelled` error that follows
    /// is reported as the 401/407 response it really is.
    func didRefuseChallenge() { state.withLock { $0.challengeCancelled = true } }

    func didComplete(error: (any Error)?) {
        let (response, data, refused) = state.withLock { ($0.response, $0.data, $0.challengeCancelled) }
        if let error {
            if refused, let response, (error as? URLError)?.code == .cancelled {
                finish(.success(TransportResponse(response: response, data: data)))
            } else {
                finish(.failure(TransportError(urlSessionError: error, url: url)))
            }
        } else if let response {
            finish(.success(TransportResponse(response: response, data: data)))
        } else {
            finish(
                .failure(TransportError(.badResponse, message: "The server closed the connection without a response.")))
        }
    }

    private func tooLarge() -> TransportError {
        TransportError(.responseTooLarge(limit: limit), message: "The response body is larger than \(limit) bytes.")
    }

    @discardableResult
    private func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let (won, timer) = state.withLock { state -> (Bool, (any DispatchSourceTimer)?) in
            guard !state.isFinished else { return (false, nil) }
            state.isFinished = true
            let timer = state.timer
            state.timer = nil
            state.data = Data()
            return (true, timer)
        }
        guard won else { return false }
        timer?.cancel()
        onFinish()
        completion(result)
        return true
    }
}
