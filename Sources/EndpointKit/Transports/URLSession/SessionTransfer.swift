import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One task of ``URLSessionTransport``: collects the body (memory or download file), reports
/// progress, and completes exactly once, whichever comes first of the task's end, a cancel, a
/// time limit, the size cap or a file error.
///
/// Time limits: the idle limit is URLSession's own request timeout; the total deadline and the
/// connect limit are kept by ``SessionDeadlines``. URLSession has no connection event, so the
/// connect limit runs until the first sign of the server: the response head, a redirect, a
/// challenge or body bytes sent.
final class SessionTransfer: TransportTask, @unchecked Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var writer: ResponseBodyWriter
        var progress = TransferProgress()
        var isFinished = false
        var challengeCancelled = false
        /// Whether the total deadline and the connect limit are armed in ``SessionDeadlines``.
        var totalArmed = false
        var connectArmed = false
        var redirects = 0
        var task: URLSessionTask?
        var unregister: (@Sendable () -> Void)?
        var followUp: URLRequest?
        var clock = SessionMetricsClock()
    }

    private let url: URL?
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    private let onProgress: (@Sendable (TransferProgress) -> Void)?
    private let state: Locked<State>
    private let original: URLRequest
    private let redirectPolicy: RedirectPolicy
    private let redirectHandler: (@Sendable (Redirect) -> RedirectAction)?

    /// The transfer's priority.
    let priority: RequestPriority
    /// The request's limits.
    let timeouts: Timeouts
    private let download: DownloadTarget?
    private let limit: Int
    /// The body streamed to the request's sink (SessionBodyStream.swift), if it has one.
    private let stream: SessionBodyStream?
    /// Starts a new task for a request the transfer resends itself (307/308 with a body on Linux).
    var onFollowUp: (@Sendable (SessionTransfer, URLRequest) -> Void)?
    /// Where each hop's cookies come from when the transport picks them itself (Linux, see
    /// ``StoredCookies``); `nil` when URLSession does, or the session sends none.
    private let cookieStorage: HTTPCookieStorage?
    /// Where the cookies each hop's response sets are stored, if the transport stores them (Linux,
    /// within ``StoredCookies``' limits).
    private let setCookieStorage: HTTPCookieStorage?

    /// - Parameters:
    ///   - cookieStorage: Where each hop's cookies come from, if the transport picks them.
    ///   - setCookieStorage: Where responses' cookies go, if the transport stores them.
    init(
        request: TransportRequest, cookieStorage: HTTPCookieStorage? = nil, setCookieStorage: HTTPCookieStorage? = nil,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) {
        self.cookieStorage = cookieStorage
        self.setCookieStorage = setCookieStorage
        url = request.urlRequest.url
        priority = request.priority
        timeouts = request.timeouts
        download = request.download
        limit = request.maximumResponseSize
        original = request.urlRequest
        redirectPolicy = request.redirectPolicy
        redirectHandler = request.redirectHandler
        onProgress = request.onProgress
        stream = request.bodySink.map { SessionBodyStream(sink: $0, limit: request.maximumResponseSize) }
        self.completion = completion
        state = Locked(
            State(writer: ResponseBodyWriter(limit: request.maximumResponseSize, download: request.download)))
    }

    /// Arms the total deadline and the connect limit.
    func armTimers() {
        let (total, connect) = (timeouts.totalLimit, timeouts.connectLimit)
        state.withLock { state in
            state.totalArmed = total != nil
            state.connectArmed = connect != nil
        }
        if let total { SessionDeadlines.shared.arm(self, .total, after: total) }
        if let connect { SessionDeadlines.shared.arm(self, .connect, after: connect) }
    }

    /// A limit armed by ``armTimers()`` ran out: the transfer ends with its time-out.
    func timeLimitPassed(_ limit: Timeouts.Limit, after seconds: TimeInterval) {
        fail(.timedOut(limit, after: seconds, url: url))
    }

    /// The server answered in some way: the connect limit no longer applies.
    private func serverReached() {
        let armed = state.withLock { state in
            defer { state.connectArmed = false }
            return state.connectArmed
        }
        if armed { SessionDeadlines.shared.disarm(self, .connect) }
    }

    /// Cancels the transfer; completes with `cancelled` unless already finished.
    func cancel() { fail(.cancelled()) }

    /// Ends the transfer with `error` now and cancels the underlying task.
    func fail(_ error: TransportError) {
        if finish(.failure(error)) { state.withLock { $0.task }?.cancel() }
    }

    /// Makes `task` the transfer's current task; `false` (and the task is not started) when the
    /// transfer already finished.
    func attach(_ task: URLSessionTask, unregister: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.isFinished else { return false }
            state.task = task
            state.unregister = unregister
            state.clock.exchangeStarted()
            return true
        }
    }

    func didReceive(response: URLResponse) -> Bool {
        serverReached()
        guard let http = response as? HTTPURLResponse else {
            fail(TransportError(.badResponse, message: "The response is not an HTTP response."))
            return false
        }
        // A redirect the transfer follows itself: its body is not the response's.
        let (task, redirected) = state.withLock { ($0.task, $0.followUp != nil) }
        if !redirected { storeCookies(of: http) }
        // Two different lengths (FoundationNetworking joins repeated fields with ", "): cancelling
        // the task closes the connection instead of reusing it.
        if let failure = HTTPFraming.contentLengthConflict(
            in: http.value(forHTTPHeaderField: "Content-Length"), url: http.url)
        {
            fail(failure)
            return false
        }
        let streamed = redirected ? false : (stream.map { $0.open(http, task: task) } ?? false)
        let outcome = state.withLock { state -> Result<TransferProgress, TransportError> in
            do throws(TransportError) {
                if !streamed { try state.writer.begin(ResponseHead(http)) }
            } catch {
                return .failure(error)
            }
            state.response = http
            state.clock.responseStarted()
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
        if let stream, stream.isOpen {
            if let failure = stream.receive(data) { fail(failure) }
            return
        }
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
        serverReached()
        let progress = state.withLock { state -> TransferProgress? in
            guard !state.isFinished, totalBytesSent > state.progress.bytesSent else { return nil }
            state.progress.bytesSent = totalBytesSent
            state.progress.totalBytesToSend = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil
            return state.progress
        }
        if let progress { onProgress?(progress) }
    }

    /// Applies the redirect rule and policy: the request to follow with (or `nil` to stop), and an
    /// error to fail with after answering URLSession.
    /// - Parameters:
    ///   - location: The redirect's `Location` field as the server sent it: a location that is not
    ///     http(s) fails the transfer (``HTTPRedirect/target(of:from:)``), whatever URLSession
    ///     made of it in `proposed`.
    ///   - response: The redirect response; a relative location is resolved against its URL.
    func redirect(
        _ response: HTTPURLResponse, location: String?, proposed: URLRequest
    ) -> (next: URLRequest?, failure: TransportError?) {
        serverReached()
        storeCookies(of: response)
        let status = response.statusCode
        if let location, let current = response.url ?? url {
            do throws(TransportError) {
                _ = try HTTPRedirect.target(of: location, from: current)
            } catch {
                return (nil, error)
            }
        }
        let count = state.withLock {
            $0.redirects += 1
            return $0.redirects
        }
        let decision = redirectPolicy.decide(
            original: original, status: status, proposed: proposed, count: count, handler: redirectHandler,
            head: ResponseHead(response))
        switch decision {
        case .follow(let next):
            state.withLock { $0.clock.exchangeStarted() }
            #if canImport(FoundationNetworking)
            // Every hop is a task of its own: FoundationNetworking would send the next hop on the
            // same libcurl handle, and libcurl 7.83 to 8.0 then reads a header line that starts
            // with a space through a pointer left over from the previous hop (curl issue 11101):
            // a hostile server stops the process. Its own follow also drops a 307/308 body. Stop,
            // and send the next hop once the redirect response is complete.
            state.withLock { $0.followUp = next }
            return (nil, nil)
            #else
            return (carryingStoredCookies(next), nil)
            #endif
        case .stop: return (nil, nil)
        case .fail(let reason, let message): return (nil, TransportError(reason, message: message))
        }
    }

    /// Stores the cookies `response` sets, within ``StoredCookies``' limits (Linux; on Apple
    /// platforms URLSession stores them).
    private func storeCookies(of response: HTTPURLResponse) {
        #if canImport(FoundationNetworking)
        guard let setCookieStorage, let url = response.url,
            let joined = response.value(forHTTPHeaderField: "Set-Cookie")
        else { return }
        StoredCookies.store(StoredCookies.setCookieFields(joined: joined), from: url, in: setCookieStorage)
        #endif
    }

    /// `request` with the `Cookie` header of the stored cookies its hop sends (see
    /// ``StoredCookies``). On a redirect it replaces the header copied from the previous hop, or
    /// removes it when no stored cookie goes there. Unchanged when the first request carried its
    /// own `Cookie` header: it then manages cookies itself, on every hop.
    /// - Parameter firstHop: The first hop's URL and whether it is `https`, as the transport read
    ///   them; `nil` for a redirect.
    func carryingStoredCookies(_ request: URLRequest, firstHop: (url: URL, overHTTPS: Bool)? = nil) -> URLRequest {
        #if canImport(FoundationNetworking)
        guard let cookieStorage, let url = firstHop?.url ?? request.url else { return request }
        let https = firstHop?.overHTTPS ?? (url.scheme?.lowercased() == "https")
        let header = StoredCookies.header(for: url, overHTTPS: https, from: cookieStorage)
        // Setting a field copies the request's storage: only when it changes.
        guard header != nil || (firstHop == nil && request.value(forHTTPHeaderField: "Cookie") != nil),
            original.value(forHTTPHeaderField: "Cookie") == nil
        else { return request }
        var request = request
        request.setValue(header, forHTTPHeaderField: "Cookie")
        return request
        #else
        return request
        #endif
    }

    /// Keeps the metrics URLSession delivered for the current task (Apple platforms).
    func didCollect(_ metrics: TransferMetrics) {
        state.withLock { $0.clock.collected = metrics }
    }

    /// Records that an authentication challenge was refused, so the `cancelled` error that follows
    /// is reported as the 401/407 response it really is.
    func didRefuseChallenge() {
        serverReached()
        state.withLock { $0.challengeCancelled = true }
    }

    func didComplete(error: (any Error)?) {
        if error == nil, let next = takeFollowUp(), let onFollowUp {
            onFollowUp(self, next)
            return
        }
        let (response, refused, task) = state.withLock { ($0.response, $0.challengeCancelled, $0.task) }
        if let error, !(refused && response != nil && (error as? URLError)?.code == .cancelled) {
            // The URL of this hop: a redirect the transfer followed itself is a task of its own.
            let url = task?.originalRequest?.url ?? url
            // URLSession's own timeout is the idle limit (the others are this transfer's timers).
            let timedOut = (error as? URLError)?.code == .timedOut
            finish(
                .failure(
                    timedOut
                        ? .timedOut(.idle, after: timeouts.idleLimit, url: url)
                        : TransportError(urlSessionError: error, url: url)))
            return
        }
        guard let response else {
            finish(
                .failure(
                    TransportError(.badResponse, message: "The server closed the connection without a response.")))
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
            let head = ResponseHead(response)
            head.metrics = state.withLock { $0.clock.metrics(redirectCount: $0.redirects) }
            let result = TransportResponse(head: head, data: body.data, fileURL: body.fileURL)
            // A streamed body ends once the sink has taken what it refused.
            guard let stream else {
                finish(.success(result))
                return
            }
            stream.whenDrained { [self] in finish(.success(result)) }
        case .failure(let error):
            finish(.failure(error))
        }
    }

    /// The request to resend after a 307/308, resetting the body collected for the redirect.
    private func takeFollowUp() -> URLRequest? {
        let (next, unregister) = state.withLock { state -> (URLRequest?, (@Sendable () -> Void)?) in
            guard !state.isFinished, let next = state.followUp else { return (nil, nil) }
            state.followUp = nil
            state.response = nil
            state.writer = ResponseBodyWriter(limit: limit, download: download)
            return (next, state.unregister)
        }
        if next != nil { unregister?() }
        return next
    }

    @discardableResult
    private func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let (won, armed, unregister) = state.withLock {
            state -> (Bool, (total: Bool, connect: Bool), (@Sendable () -> Void)?) in
            guard !state.isFinished else { return (false, (false, false), nil) }
            state.isFinished = true
            let armed = (state.totalArmed, state.connectArmed)
            state.totalArmed = false
            state.connectArmed = false
            if case .failure = result { state.writer.abandon() }
            state.writer = ResponseBodyWriter(limit: 0, download: nil)
            return (true, armed, state.unregister)
        }
        guard won else { return false }
        stream?.close()
        if armed.total { SessionDeadlines.shared.disarm(self, .total) }
        if armed.connect { SessionDeadlines.shared.disarm(self, .connect) }
        unregister?()
        completion(result)
        return true
    }
}
