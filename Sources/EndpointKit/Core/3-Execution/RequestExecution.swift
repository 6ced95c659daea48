import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One send of one request, from first attempt to delivery: build, adapt (interceptors), send,
/// process, decide on a retry (interceptors, then the retry policy), wait, and complete once.
///
/// Every phase checks the handle first: once the request completed or was cancelled, nothing
/// else is delivered. Interceptor calls are bounded by the request's idle and total timeouts.
final class RequestExecution<Request: APIRequest>: Sendable {
    struct State {
        var attempt = 0
        var failures: [APIFailure] = []
        var timer: (any DispatchSourceTimer)?
        var interception: Task<Void, Never>?
        var temporaryFiles: [URL] = []
        var download: (partial: PartialDownload, offset: Int64)?
        var restartedDownload = false
        var caching: RequestCaching?
        var cacheEntry: CachedResponse?
    }

    let handle: RequestHandle
    let client: APIClient
    let request: Request
    /// The request as a download, cast once (a cast to an existential looks up a conformance).
    private let downloadRequest: (any DownloadRequest)?
    private let emit: @Sendable (APIResult<Request.Response>) -> Void
    /// Where a response is processed: the client's processing queue, or an awaiting caller.
    private let processing: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let policy: RetryPolicy
    private let timeouts: Timeouts
    private let started = DispatchTime.now()
    let state = Locked(State())
    /// Overrides the cache mode (the background refresh of ``CachePolicy/Mode/cacheThenRefresh``).
    let cacheModeOverride: CachePolicy.Mode?

    /// The most attempts a request makes, whatever interceptors ask (guards against loops).
    private static var attemptCap: Int { 20 }

    /// - Parameter processing: Runs the processing of each response; the client's processing
    ///   queue when `nil`.
    init(
        client: APIClient, request: Request, cacheModeOverride: CachePolicy.Mode? = nil,
        processing: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        emit: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) {
        self.cacheModeOverride = cacheModeOverride
        self.client = client
        self.request = request
        downloadRequest = request as? any DownloadRequest
        self.emit = emit
        let queue = client.processingQueue
        self.processing = processing ?? { queue.async(execute: $0) }
        policy = request.retryPolicy ?? client.configuration.retryPolicy
        timeouts = request.timeouts(overriding: client.configuration.timeouts)
        // `_typeName` gives what `String(describing:)` gives for a type, without its printing machinery
        // (about 1.4% of a request's CPU).
        handle = RequestHandle(tag: request.tag, endpoint: _typeName(Request.self, qualified: false))
    }

    func start() {
        client.registry.insert(handle)
        handle.setCancellation { [self] in
            stopWaiting()
            complete(with: .transportError(.cancelled()))
        }
        runAttempt()
    }

    private func context(attempt: Int, failures: [APIFailure]) -> RequestContext {
        RequestContext(
            id: handle.id, endpoint: handle.endpoint, method: request.method, tag: request.tag, attempt: attempt,
            previousFailures: failures, showsActivityIndicator: request.showsActivityIndicator)
    }

    // MARK: - Attempts

    private func runAttempt() {
        guard handle.isRunning else { return }
        let (attempt, failures) = state.withLock { state -> (Int, [APIFailure]) in
            state.attempt += 1
            return (state.attempt, state.failures)
        }
        let context = context(attempt: attempt, failures: failures)
        var built: URLRequestBuilder.Built
        do {
            built = try client.builder.makeRequest(for: request)
        } catch {
            finish(
                .transportError(TransportError(.requestBuildFailed, message: error.description, underlyingError: error))
            )
            return
        }
        if !built.temporaryFiles.isEmpty { state.withLock { $0.temporaryFiles += built.temporaryFiles } }
        prepareDownload(&built)
        let interceptors = client.configuration.interceptors
        guard !interceptors.isEmpty else { return send(built, context: context) }
        intercept(
            "adapt",
            operation: { [built] in
                var adapted = built.urlRequest
                for interceptor in interceptors { adapted = try await interceptor.adapt(adapted, context: context) }
                return adapted
            },
            then: { [self, built] outcome in
                switch outcome {
                case .success(let adapted):
                    // Interceptors may write anything into the request: check it again.
                    if let violation = HeaderFieldRules.violation(in: adapted) {
                        return finish(.transportError(violation))
                    }
                    var adaptedBuilt = built
                    adaptedBuilt.urlRequest = adapted
                    send(adaptedBuilt, context: context)
                case .failure(let error): finish(.transportError(error))
                }
            })
    }

    /// For a download: resume a partial file with `Range`/`If-Range`, or start over.
    private func prepareDownload(_ built: inout URLRequestBuilder.Built) {
        guard let download = downloadRequest, let url = built.urlRequest.url else { return }
        let partial = PartialDownload(
            folder: client.configuration.partialDownloadsDirectory, sourceURL: url, destination: download.destination)
        var offset: Int64 = 0
        if download.isResumable, let point = partial.resumePoint() {
            offset = point.offset
            built.urlRequest.setValue("bytes=\(point.offset)-", forHTTPHeaderField: "Range")
            built.urlRequest.setValue(point.validator, forHTTPHeaderField: "If-Range")
        } else {
            partial.discard()
        }
        state.withLock { $0.download = (partial, offset) }
    }

    private func send(_ built: URLRequestBuilder.Built, context: RequestContext) {
        guard handle.isRunning else { return }
        var conditional = built.urlRequest
        if context.attempt == 1, let cached = consultCache(&conditional) { return finish(cached) }
        let urlRequest = conditional
        if client.configuration.failsFastWhenOffline, client.configuration.connectivity?.status == .offline {
            return finish(
                .transportError(TransportError(.notConnected, message: "The connectivity monitor reports no network.")))
        }
        for plugin in client.configuration.plugins { plugin.willSend(urlRequest, context: context) }
        let download = state.withLock { $0.download }
        let reporter = handle.progressReporter
        let transportRequest = TransportRequest(
            urlRequest: urlRequest, timeouts: timeouts,
            maximumResponseSize: client.configuration.maximumResponseSize, priority: request.priority,
            bodyFile: built.bodyFile,
            download: download.map { download in
                DownloadTarget(fileURL: download.partial.fileURL, resumeOffset: download.offset) { response in
                    download.partial.record(response)
                }
            },
            onProgress: { reporter.report($0) }, redirectPolicy: client.configuration.redirectPolicy,
            endpoint: request)
        let processor = ResponseProcessor(configuration: client.configuration, request: request, urlRequest: urlRequest)
        let task = client.transport(for: request).execute(transportRequest) { [self] outcome in
            guard handle.isRunning else { return }
            processing { [self] in
                guard handle.isRunning else { return }
                for plugin in client.configuration.plugins {
                    plugin.didReceive(outcome, for: urlRequest, context: context)
                }
                let (adjusted, source) = revalidated(outcome)
                let result = processor.process(adjusted, elapsed: elapsed).from(source)
                if source == .network, result.isSuccess, case .success(let response) = adjusted {
                    state.withLock { $0.caching }?.store(response, for: urlRequest)
                }
                evaluate(result, urlRequest: urlRequest, context: context)
            }
        }
        handle.attach(task)
    }

    var elapsed: TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    }

    // MARK: - Retries

    private func evaluate(_ result: APIResult<Request.Response>, urlRequest: URLRequest, context: RequestContext) {
        if let restart = restartIfRangeWasRefused(result) {
            return restart ? runAttempt() : finish(result)
        }
        if case .success(let fileURL, let metadata) = result, downloadRequest != nil {
            return finish(finalizeDownload(fileURL, metadata: metadata))
        }
        guard let failure = result.failure, context.attempt < Self.attemptCap, !isCancellation(failure) else {
            return finish(result)
        }
        let policyDelay = policy.retryDelay(after: failure, attempt: context.attempt, method: request.method)
        let interceptors = client.configuration.interceptors
        guard !interceptors.isEmpty else { return retryOrFinish(result, failure: failure, delay: policyDelay) }
        intercept(
            "retry",
            operation: {
                for interceptor in interceptors {
                    let decision = await interceptor.retry(urlRequest, failedWith: failure, context: context)
                    if decision != .doNotRetry { return decision }
                }
                return .doNotRetry
            },
            then: { [self] outcome in
                switch outcome {
                case .success(.retry): retryOrFinish(result, failure: failure, delay: 0)
                case .success(.retryAfter(let seconds)): retryOrFinish(result, failure: failure, delay: max(0, seconds))
                case .success(.doNotRetry): retryOrFinish(result, failure: failure, delay: policyDelay)
                case .failure(let error): finish(.transportError(error))
                }
            })
    }

    /// A resumed download the server refused as unsatisfiable (the partial file is longer than
    /// the resource): discard the partial file and start over, once. `nil` when not applicable.
    private func restartIfRangeWasRefused(_ result: APIResult<Request.Response>) -> Bool? {
        guard result.failure?.statusCode == 416 else { return nil }
        return state.withLock { state -> Bool? in
            guard let download = state.download, download.offset > 0 else { return nil }
            download.partial.discard()
            state.download = nil
            defer { state.restartedDownload = true }
            return !state.restartedDownload
        }
    }

    private func finalizeDownload(_ value: Request.Response, metadata: ResponseMetadata) -> APIResult<Request.Response>
    {
        guard let download = downloadRequest, let partial = state.withLock({ $0.download?.partial })
        else {
            return .success(value, metadata)
        }
        do throws(TransportError) {
            let target = try partial.moveToDestination(download.destination, response: metadata.response)
            guard let final = target as? Request.Response else { return .success(value, metadata) }
            return .success(final, metadata)
        } catch {
            return .transportError(error)
        }
    }

    private func isCancellation(_ failure: APIFailure) -> Bool {
        if case .transport(let error) = failure { return error.reason == .cancelled }
        return false
    }

    private func retryOrFinish(_ result: APIResult<Request.Response>, failure: APIFailure, delay: TimeInterval?) {
        guard let delay, handle.isRunning else { return finish(result) }
        state.withLock { $0.failures.append(failure) }
        schedule(after: delay) { [self] in runAttempt() }
    }

    // MARK: - Waiting

    /// Runs an interceptor phase in a Task, bounded by the request's idle timeout (no progress
    /// while the interceptor works) or its total timeout, whichever is shorter.
    private func intercept<Value: Sendable>(
        _ phase: String, operation: @escaping @Sendable () async throws -> Value,
        then: @escaping @Sendable (Result<Value, TransportError>) -> Void
    ) {
        let once = Locked(false)
        let deliver: @Sendable (Result<Value, TransportError>) -> Void = { [self] outcome in
            guard
                once.withLock({ done in
                    defer { done = true }; return !done
                })
            else { return }
            stopWaiting()
            processing { [self] in
                guard handle.isRunning else { return }
                then(outcome)
            }
        }
        let limits = [Timeouts.Limit.idle, .total].compactMap { limit in timeouts.seconds(of: limit).map { (limit, $0) }
        }
        if let (limit, seconds) = limits.min(by: { $0.1 < $1.1 }) {
            schedule(after: seconds) {
                let error = TransportError.timedOut(limit, after: seconds)
                deliver(
                    .failure(
                        TransportError(
                            .timedOut, message: "The interceptor's \(phase) ran out of time: \(error.message)",
                            timeoutLimit: limit)))
            }
        }
        let task = Task {
            do {
                deliver(.success(try await operation()))
            } catch {
                deliver(
                    .failure(
                        TransportError(
                            .requestBuildFailed, message: "An interceptor failed to \(phase) the request: \(error)",
                            underlyingError: error)))
            }
        }
        state.withLock { $0.interception = task }
    }

    private func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: client.processingQueue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler(handler: action)
        let previous = state.withLock { state -> (any DispatchSourceTimer)? in
            defer { state.timer = timer }
            return state.timer
        }
        previous?.cancel()
        timer.resume()
    }

    /// Ends any backoff wait, deadline watch or interceptor call in progress.
    private func stopWaiting() {
        let (timer, task) = state.withLock { state in
            defer {
                state.timer = nil
                state.interception = nil
            }
            return (state.timer, state.interception)
        }
        timer?.cancel()
        task?.cancel()
    }

    // MARK: - Completion

    func finish(_ result: APIResult<Request.Response>) {
        let result = offlineFallback(for: result)
        guard handle.markCompleted() else { return }
        stopWaiting()
        complete(with: result)
    }

    private func complete(with result: APIResult<Request.Response>) {
        client.registry.remove(handle)
        let (temporaryFiles, download, attempt, failures) = state.withLock {
            ($0.temporaryFiles, $0.download, $0.attempt, $0.failures)
        }
        for file in temporaryFiles { try? FileManager.default.removeItem(at: file) }
        if let download, result.failure != nil,
            handle.discardsPartialDownload || !(downloadRequest?.isResumable ?? false)
        {
            download.partial.discard()
        }
        handle.progressReporter.complete(succeeded: result.isSuccess)
        let plugins = client.configuration.plugins
        if !plugins.isEmpty {
            let context = context(attempt: max(1, attempt), failures: failures)
            for plugin in plugins { plugin.didComplete(result, context: context) }
        }
        emit(result)
    }
}
