import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One send of one request, from its first attempt to its single delivery.
///
/// Each attempt: build the `URLRequest`, let the stages that adapt requests change it (and check
/// its head again), let every stage see it before it is sent (a stage may answer it at once),
/// hand it to the transport, let the stages see the outcome in reverse order, validate and decode
/// it, then ask the stages that decide retries (the client's retrier last). A failure that is not
/// retried, or a success, completes the send: a stage may still answer a failure (a stale cache
/// entry when offline), then every stage hears the result and the caller gets it, once.
///
/// Read in this order: ``start()``, then per attempt `runAttempt` (build, adapt), `send` (the
/// stages prepare it, the transport sends it), `process` (the stages see the outcome; validate,
/// decode), `evaluate` (finish, or `askRetriers` and `act` on the decision: the next attempt), and
/// once `finish` and ``complete(with:)``. The stages (``StagePipeline``, from the client's
/// features, see ``RequestStage``) take part only in the steps they hook: with none configured an
/// attempt is build, transport, process, deliver. Every step checks the handle first: once the
/// send completed or was cancelled, nothing else is delivered.
final class RequestExecution<Request: APIRequest>: Sendable {
    let handle: RequestHandle
    let client: APIClient
    /// The request as this send reads it: its members, once, with the client's defaults.
    let resolved: ResolvedRequest
    /// The endpoint itself, for what only it can do (`transformBody`, `decode`) and for features.
    let request: Request
    /// The stages of this send, in the order of the client's features.
    private let stages: StagePipeline
    /// Where the result goes, and the delegates told after it (see ``ResultDelivery``).
    private let route: ResultDelivery<Request>.Route
    private let delegates: [WeakReference<any APIRequestDelegate>]
    /// Where each response is processed: the thread hop after the transport's completion.
    let responseThread: ResponseThread
    /// What the send site added to the request's send information.
    private let sendSiteInfo: SendInfo
    private let started = DispatchTime.now()

    var timeouts: Timeouts { resolved.timeouts }

    /// Where an answer given without any request sent claims to come from.
    private static var noURL: URL { URL(fileURLWithPath: "/") }

    /// The most attempts a send makes, whatever its retriers ask (guards against loops).
    private static var attemptCap: Int { 20 }

    /// - Parameters:
    ///   - route: Where the result goes; the `delegates` hear it after, on the main actor.
    ///   - responseThread: Where each response is processed; the client's processing queue when
    ///     `nil`. An awaiting caller (see ``AwaitingCaller``) starts the send from the library's
    ///     own nonisolated async code, off every actor of the app, and its first attempt runs
    ///     there at once. Otherwise the send was started from app code on any thread (often the
    ///     main one), and its first attempt runs on the processing queue.
    init(
        client: APIClient, request: Request, resolved: ResolvedRequest, options: SendOptions = .none,
        route: ResultDelivery<Request>.Route,
        delegates: [WeakReference<any APIRequestDelegate>] = [],
        responseThread: ResponseThread? = nil
    ) {
        self.client = client
        self.resolved = resolved
        self.request = request
        self.route = route
        self.delegates = delegates
        self.responseThread = responseThread ?? .processingQueue(client.processingQueue)
        sendSiteInfo = options.info
        let features = client.features.features(for: Request.Response.self)
        if features.isEmpty, options.stage == nil {
            stages = .empty
        } else {
            var stages: [any RequestStage] = options.stage.map { [$0] } ?? []
            for feature in features {
                if let stage = feature.stage(for: request, options: options) { stages.append(stage) }
            }
            self.stages = StagePipeline(stages)
        }
        handle = RequestHandle(
            tag: resolved.tag, endpointType: resolved.endpointType, reportsProgress: options.reportsProgress)
    }

    /// Registers the send (cancelling it from now on completes it, once, as cancelled) and starts
    /// its first attempt. Nothing heavy runs on the starting thread: building the body (encoding,
    /// staging files), the stages' look before sending (the cache's digest and disk read) and the
    /// transport's setup run on the processing queue, unless an awaiting caller starts the send
    /// (see the initializer's `responseThread`).
    func start() {
        client.registry.insert(handle)
        handle.setCancellation { [self] in
            stopWaiting()
            complete(with: .transportError(.cancelled()))
        }
        // An awaiting caller's task runs the first attempt at once; app code's thread does not.
        if case .awaitingCaller = responseThread { return runAttempt() }
        client.processingQueue.async { [self] in runAttempt() }
    }

    /// What interceptors, plugins, stages and retriers know of this send at `attempt`: made only
    /// for them, so a send that has none makes none.
    func context(attempt: Int) -> RequestContext {
        let failures = handle.withStorage { $0.execution.failures }
        let info = sendSiteInfo.isEmpty ? resolved.sendInfo : resolved.sendInfo.merging(sendSiteInfo)
        return RequestContext(
            id: handle.id, endpoint: handle.endpoint, method: resolved.method, tag: resolved.tag, attempt: attempt,
            previousFailures: failures, info: info)
    }

    // MARK: - Attempts

    private func runAttempt() {
        let attempt = handle.withStorage { storage -> Int? in
            guard storage.isRunning else { return nil }
            storage.execution.attempt += 1
            return storage.execution.attempt
        }
        guard let attempt else { return }
        let built: URLRequestBuilder.Built
        do {
            built = try client.builder.makeRequest(for: resolved)
        } catch {
            return fail(TransportError(.requestBuildFailed, message: error.description, underlyingError: error))
        }
        if !built.temporaryFiles.isEmpty {
            // A send cancelled while its body was built has removed its files already: these too.
            let late = handle.withStorage { storage -> Bool in
                if !storage.execution.releasedFiles { storage.execution.temporaryFiles += built.temporaryFiles }
                return storage.execution.releasedFiles
            }
            if late {
                for file in built.temporaryFiles { try? FileManager.default.removeItem(at: file) }
                return
            }
        }
        guard stages.adaptsRequests || !resolved.interceptors.isEmpty else { return send(built, attempt: attempt) }
        let (stages, interceptors) = (self.stages, resolved.interceptors)
        let context = context(attempt: attempt)
        runAsyncPhase(
            "adapt",
            operation: { [built] in
                var adapted = try await stages.adapt(built.urlRequest, context: context)
                for interceptor in interceptors { adapted = try await interceptor.adapt(adapted, context: context) }
                return adapted
            },
            then: { [self, built] outcome in
                switch outcome {
                case .success(let adapted):
                    // Adapters may write anything into the request: check its head again.
                    if let violation = HeaderFieldRules.refusal(of: adapted) {
                        return finish(.transportError(violation))
                    }
                    var adaptedBuilt = built
                    adaptedBuilt.urlRequest = adapted
                    send(adaptedBuilt, attempt: attempt)
                case .failure(let error): finish(.transportError(error))
                }
            })
    }

    private func send(_ built: URLRequestBuilder.Built, attempt: Int) {
        // Still running, and its progress reporter if it has one: one look under the lock.
        guard let reporter = handle.withStorage({ $0.isRunning ? Optional.some($0.reporter) : nil }) else { return }
        var onProgress: (@Sendable (TransferProgress) -> Void)?
        if let reporter { onProgress = { reporter.report($0) } }
        var transportRequest = TransportRequest(
            urlRequest: built.urlRequest, timeouts: timeouts,
            maximumResponseSize: client.configuration.maximumResponseSize, priority: resolved.priority,
            bodyFile: built.bodyFile, onProgress: onProgress, redirectPolicy: client.configuration.redirectPolicy)
        if resolved.hasCredential {
            transportRequest.credential = resolved.credential(
                for: built.urlRequest.url, clientBaseURL: client.configuration.baseURL)
        }
        transportRequest.redirectHandler = resolved.redirectHandler
        var sender: any AttemptSender = resolved.coalesces ? client.coalescer : client.sender
        if stages.preparesAttempts,
            let answer = stages.prepare(&transportRequest, sender: &sender, context: context(attempt: attempt))
        {
            return evaluate(answer, urlRequest: transportRequest.urlRequest, attempt: attempt)
        }
        // Outermost: attempts coalesced onto one transfer each answer with their own credential.
        if transportRequest.credential != nil { sender = ChallengeAnsweringSender(sender) }
        let urlRequest = transportRequest.urlRequest
        if stages.answersFailures { handle.withStorage { $0.execution.lastRequest = urlRequest } }
        let task = sender.send(transportRequest, for: request) { [self] outcome in
            guard handle.isRunning else { return }
            responseThread.hop { [self] in
                guard handle.isRunning else { return }
                evaluate(process(outcome, for: urlRequest, attempt: attempt), urlRequest: urlRequest, attempt: attempt)
            }
        }
        handle.attach(task)
    }

    /// Validates and decodes an attempt's outcome, the stages seeing it on the way. Inlined into
    /// the completion, with the processor's methods, so that the result type is looked up once
    /// there rather than in each of them.
    @inline(__always)
    private func process(
        _ outcome: Result<TransportResponse, TransportError>, for urlRequest: URLRequest, attempt: Int
    ) -> APIResult<Request.Response> {
        guard stages.seesOutcomes else {
            let elapsed = elapsed
            return ResponseProcessor(resolved: resolved, urlRequest: urlRequest).process(
                outcome, for: request, elapsed: elapsed)
        }
        return processWithStages(outcome, for: urlRequest, attempt: attempt)
    }

    /// ``process(_:for:attempt:)`` when stages see the outcome and the result.
    @inline(never)
    private func processWithStages(
        _ outcome: Result<TransportResponse, TransportError>, for urlRequest: URLRequest, attempt: Int
    ) -> APIResult<Request.Response> {
        var outcome = outcome
        var source = ResponseSource.network
        stages.receive(&outcome, source: &source, request: urlRequest, context: context(attempt: attempt))
        let elapsed = elapsed
        let result = ResponseProcessor(resolved: resolved, urlRequest: urlRequest).process(
            outcome, for: request, elapsed: elapsed
        ).from(source)
        return stages.review(result, response: try? outcome.get(), source: source)
    }

    /// The result of a stage's answer, validated and decoded like a response from the network.
    private func result(of answer: StageAnswer, for urlRequest: URLRequest) -> APIResult<Request.Response> {
        switch answer {
        case .failure(let error):
            return .transportError(error)
        case .response(let response, let source):
            let elapsed = elapsed
            return ResponseProcessor(resolved: resolved, urlRequest: urlRequest).process(
                .success(response), for: request, elapsed: elapsed
            )
            .from(source)
        }
    }

    var elapsed: TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    }

    /// A stage's answer in place of sending. A failure answered here (no network) is still a failed
    /// attempt: the retriers may send it again (once the network is back). Out of line, like
    /// ``fail(_:)``, so the path that sends never looks up the result type's metadata.
    @inline(never)
    private func evaluate(_ answer: StageAnswer, urlRequest: URLRequest, attempt: Int) {
        evaluate(result(of: answer, for: urlRequest), urlRequest: urlRequest, attempt: attempt)
    }

    /// Finishes the send with `error` before anything was sent.
    @inline(never)
    private func fail(_ error: TransportError) {
        finish(.transportError(error))
    }

    // MARK: - Retries

    private func evaluate(_ result: APIResult<Request.Response>, urlRequest: URLRequest, attempt: Int) {
        // Nothing to ask (the usual case): the result is only handed on, never copied here.
        guard stages.decidesRetries || !resolved.interceptors.isEmpty || resolved.retrier != nil else {
            return finish(result)
        }
        askRetriers(result, urlRequest: urlRequest, attempt: attempt)
    }

    /// Asks the stages, interceptors and retrier whether a failed attempt is sent again.
    ///
    /// A retrier that decides at once (``ImmediateRetrier``: the retry policy) and is the only one
    /// asked decides where the response was processed: on the awaiting task for an `async` send,
    /// with no task or timer for the decision. Any other retrier is asynchronous code of its own:
    /// it runs in a task bounded by the request's time limits (see
    /// ``runAsyncPhase(_:operation:then:)``).
    @inline(never)
    private func askRetriers(_ result: APIResult<Request.Response>, urlRequest: URLRequest, attempt: Int) {
        guard let failure = result.failure, attempt < Self.attemptCap, !failure.isCancellation else {
            return finish(result)
        }
        if !stages.decidesRetries, resolved.interceptors.isEmpty,
            let retrier = resolved.retrier as? any ImmediateRetrier
        {
            let decision = retrier.decision(after: failure, attempt: attempt, method: resolved.method)
            return act(on: decision, after: failure, result: result)
        }
        let (stages, interceptors, retrier) = (self.stages, resolved.interceptors, resolved.retrier)
        let context = context(attempt: attempt)
        runAsyncPhase(
            "retry",
            operation: {
                let decision = await stages.retry(after: failure, request: urlRequest, context: context)
                if decision != .noOpinion { return decision }
                for interceptor in interceptors {
                    let decision = await interceptor.retry(urlRequest, failedWith: failure, context: context)
                    if decision != .noOpinion { return decision }
                }
                return await retrier?.retry(urlRequest, failedWith: failure, context: context) ?? .noOpinion
            },
            then: { [self] outcome in
                switch outcome {
                case .success(let decision): act(on: decision, after: failure, result: result)
                case .failure(let error): finish(.transportError(error))
                }
            })
    }

    /// Sends the request again after the decision's wait, or finishes with `result`. The next
    /// attempt runs where responses are processed: at once, or when the wait's timer fires (on
    /// the awaiting task for an `async` send).
    private func act(on decision: RetryDecision, after failure: APIFailure, result: APIResult<Request.Response>) {
        guard case .retry(let delay) = decision, handle.isRunning else { return finish(result) }
        handle.withStorage { $0.execution.failures.append(failure) }
        guard delay > 0 else { return runAttempt() }
        schedule(after: delay) { [self] in
            // The timer fires on the processing queue: an awaited send goes back to its task.
            guard case .awaitingCaller = responseThread else { return runAttempt() }
            responseThread.hop { [self] in runAttempt() }
        }
    }

    // MARK: - Completion

    func finish(_ result: APIResult<Request.Response>) {
        // Only a stage answers in place of a failure: a send where none can hands `result` on as it
        // is, without a copy.
        guard !stages.answersFailures else { return finishAfterFallback(result) }
        completeOnce(with: result)
    }

    /// Finishes with what a stage answers in place of a failure, if one does.
    @inline(never)
    private func finishAfterFallback(_ result: APIResult<Request.Response>) {
        completeOnce(with: fallback(for: result))
    }

    /// Completes the send with `result`, unless it completed (or was cancelled) already.
    private func completeOnce(with result: APIResult<Request.Response>) {
        // Marked completed, and the waits taken to stop: one look under the lock.
        let waits = handle.withStorage { storage in storage.markCompleted() ? storage.execution.takeWaits() : nil }
        guard let waits else { return }
        waits.stop()
        complete(with: result)
    }

    /// A failure without a usable answer, answered by a stage instead when one can (and its
    /// answer succeeds).
    private func fallback(for result: APIResult<Request.Response>) -> APIResult<Request.Response> {
        guard case .transportError(let error) = result else { return result }
        for answer in stages.answers(for: error) {
            guard case .response(let response, _) = answer else { continue }
            let urlRequest =
                handle.withStorage { $0.execution.lastRequest } ?? URLRequest(url: response.response.url ?? Self.noURL)
            let answered = self.result(of: answer, for: urlRequest)
            if answered.isSuccess { return answered }
        }
        return result
    }

    /// Ends any backoff wait, time limit watch or asynchronous phase in progress.
    func stopWaiting() {
        handle.withStorage { $0.execution.takeWaits() }.stop()
    }

    func complete(with result: APIResult<Request.Response>) {
        client.registry.remove(handle)
        let (temporaryFiles, attempt, reporter) = handle.withStorage { storage in
            storage.execution.releasedFiles = true
            defer { storage.execution.temporaryFiles = [] }
            return (storage.execution.temporaryFiles, storage.execution.attempt, storage.reporter)
        }
        for file in temporaryFiles { try? FileManager.default.removeItem(at: file) }
        reporter?.complete(succeeded: result.isSuccess)
        if stages.hearsResults {
            stages.complete(with: result, context: context(attempt: max(1, attempt)), handle: handle)
        }
        ResultDelivery.deliver(result, for: request, route: route, delegates: delegates)
    }
}

extension APIFailure {
    /// Whether the attempt was cancelled (never retried).
    var isCancellation: Bool {
        if case .transport(let error) = self { return error.reason == .cancelled }
        return false
    }
}

extension APIResult {
    /// The result with its metadata marked as coming from `source`.
    func from(_ source: ResponseSource) -> APIResult {
        guard source != .network, case .success(let value, var metadata) = self else { return self }
        metadata.source = source
        return .success(value, metadata)
    }
}
