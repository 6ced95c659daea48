import Dispatch
import EndpointKit
import Foundation

extension APIClient {
    /// Streams a request's elements as an `AsyncSequence`; iterating sends the request, leaving
    /// the loop or cancelling the Task cancels it.
    ///
    /// ```swift
    /// for try await event in client.stream(Ticker(symbol: "ACME")) {
    ///     price = try event.decodeData(as: Quote.self).price
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The streaming endpoint.
    ///   - info: What this send tells plugins, added to the request's ``/EndpointKit/APIRequest/sendInfo``.
    ///     Empty by default.
    /// - Returns: The elements; the loop throws the ``/EndpointKit/APIFailure`` the stream ends
    ///   with (see ``ResponseStream``).
    public func stream<Request: StreamingRequest>(
        _ request: Request, info: SendInfo = SendInfo()
    ) -> ResponseStream<Request.Element> {
        ResponseStream { [self] in
            let run = StreamRun(client: self, request: request, info: info)
            let reader = StreamReader(controller: run, format: request.format, decoder: run.decoder)
            run.start()
            return reader
        }
    }

    /// Streams a request's elements to a closure, on the main actor, then calls `completion`
    /// once. Elements are decoded off the main thread.
    ///
    /// ```swift
    /// let handle = client.stream(TailLog(name: "api"), onElement: { line in
    ///     console.append(line)
    /// }, completion: { result in
    ///     if case .transportError(let error) = result, error.reason != .cancelled { console.append(error.message) }
    /// })
    /// ```
    /// - Parameters:
    ///   - request: The streaming endpoint.
    ///   - info: What this send tells plugins, added to the request's ``/EndpointKit/APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - onElement: Called with each element, in order. The next one waits until it returns, and
    ///     the transfer waits when the buffer is full.
    ///   - completion: Called once after the last element: the ``StreamSummary``, or the failure.
    /// - Returns: A handle that cancels the stream (nothing else is delivered, then the completion
    ///   reports ``/EndpointKit/TransportError/Reason/cancelled``).
    @discardableResult
    public func stream<Request: StreamingRequest>(
        _ request: Request, info: SendInfo = SendInfo(),
        onElement: @escaping @MainActor @Sendable (Request.Element) -> Void,
        completion: @escaping @MainActor @Sendable (APIResult<StreamSummary>) -> Void
    ) -> RequestHandle {
        let run = StreamRun(client: self, request: request, info: info)
        let pump = StreamPump(
            controller: run, format: request.format, decoder: run.decoder, readQueue: processingQueue,
            onElement: { element in
                onElement(element)
                return true
            }, onEnd: completion)
        run.start()
        pump.start()
        return run.composite.handle
    }

    /// Streams a request's elements to a delegate on the main actor, then tells it the end.
    ///
    /// ```swift
    /// client.stream(LiveFeed(), delegate: self)      // StreamingRequestDelegate
    /// ```
    /// - Parameters:
    ///   - request: The streaming endpoint.
    ///   - info: What this send tells plugins, added to the request's ``/EndpointKit/APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - delegate: Told each element, then the end; held weakly: the stream is cancelled once it
    ///     is gone.
    /// - Returns: A handle that cancels the stream.
    @discardableResult
    public func stream<Request: StreamingRequest>(
        _ request: Request, info: SendInfo = SendInfo(), delegate: any StreamingRequestDelegate
    ) -> RequestHandle {
        let listener = WeakReference<any StreamingRequestDelegate>(delegate)
        let run = StreamRun(client: self, request: request, info: info)
        let pump = StreamPump(
            controller: run, format: request.format, decoder: run.decoder, readQueue: processingQueue,
            onElement: { element in
                guard let delegate = listener.value else { return false }
                delegate.request(request, didReceive: element)
                return true
            },
            onEnd: { result in listener.value?.receive(result, for: request) })
        run.start()
        pump.start()
        return run.composite.handle
    }
}
