import Dispatch
@_spi(Internal) import EndpointKit
import Foundation

/// One stream from its first connection to the reader taking its end: sends the request (each
/// connection is an ordinary send, with interceptors, plugins and retries of the attempt),
/// reconnects an event stream, and ends the channel once, with the result the reader gets.
///
/// The stream's handle (a ``/EndpointKit/CompositeRun``) is registered with the client, so cancelling it, its
/// tag or every request ends the stream as cancelled; it completes when the reader took the end.
final class StreamRun<Request: StreamingRequest>: Sendable {
    private struct State {
        var connection: RequestHandle?
        var timer: (any DispatchSourceTimer)?
        var isEnded = false
        var reconnects = 0
        /// Reconnections in a row that brought no event.
        var quietReconnections = 0
    }

    let channel: StreamChannel
    let composite: CompositeRun
    private let client: APIClient
    private let request: Request
    private let info: SendInfo
    private let reconnection: StreamReconnection?
    private let state = Locked(State())

    /// Transport failures after which an established event stream reconnects: the connection
    /// dropped or could not be made again.
    private static var dropped: Set<TransportError.Reason> {
        [.connectionLost, .timedOut, .notConnected, .cannotConnect, .cannotFindHost]
    }

    init(client: APIClient, request: Request, info: SendInfo) {
        self.client = client
        self.request = request
        self.info = info
        let format = request.format
        channel = StreamChannel(
            capacity: request.bufferSize, limit: client.configuration.maximumResponseSize, framing: format.framing)
        composite = CompositeRun(client: client, endpoint: _typeName(Request.self, qualified: false), tag: request.tag)
        reconnection = format.isEventStream ? request.reconnection : nil
    }

    /// The decoder elements are decoded with.
    var decoder: JSONDecoder { request.decoder ?? client.configuration.decoder }

    func start() {
        channel.onFailure.withLock { $0 = { [weak self] error in self?.end(.transportError(error), discarding: true) } }
        composite.begin { [self] in end(.transportError(.cancelled()), discarding: true) }
        connect()
    }

    /// Cancels the stream (the reader left, or its Task was cancelled).
    func cancel() { composite.handle.cancel() }

    /// Ends the stream with a failure the reader ran into (an element that did not decode).
    func fail(_ error: TransportError) { end(.transportError(error), discarding: true) }

    /// The reader took the end: the stream's handle completes.
    func delivered(_ result: APIResult<StreamSummary>) {
        _ = composite.complete(succeeded: result.isSuccess)
    }

    // MARK: - Connections

    private func connect() {
        guard !state.withLock({ $0.isEnded }) else { return }
        let stage = StreamingStage(
            channel: channel, validation: request.validation ?? client.configuration.validation)
        let options = SendOptions(reportsProgress: false, info: info, stage: stage, streamsBody: true)
        let handle = client.start(request, route: .inPlace { [self] in ended($0) }, options: options)
        let isEnded = state.withLock { state -> Bool in
            if !state.isEnded { state.connection = handle }
            return state.isEnded
        }
        if isEnded { handle.cancel() }
    }

    /// A connection ended: reconnect an event stream, or end the stream.
    private func ended(_ result: APIResult<StreamSummary>) {
        let brought = channel.connectionFrames > 0
        guard let reconnection else { return end(summarized(result), discarding: false) }
        switch result {
        case .success(_, let metadata) where metadata.statusCode == 204:
            let failure = ServerFailure(
                kind: .httpStatus, code: nil, message: "The server ended the event stream (204 No Content).",
                metadata: metadata)
            end(.serverFailure(failure), discarding: false)
        case .success:
            reconnect(after: result, brought: brought, policy: reconnection)
        case .transportError(let error) where Self.dropped.contains(error.reason):
            reconnect(after: result, brought: brought, policy: reconnection)
        default:
            end(result, discarding: false)
        }
    }

    private func reconnect(after result: APIResult<StreamSummary>, brought: Bool, policy: StreamReconnection) {
        // Only an established stream reconnects; a first connection that fails is the retrier's.
        guard channel.wasOpened else { return end(summarized(result), discarding: false) }
        let serverTime = channel.progress.reconnectionTime
        let wait = state.withLock { state -> TimeInterval? in
            guard !state.isEnded else { return nil }
            if let limit = policy.maximumReconnects, state.reconnects >= limit { return nil }
            state.reconnects += 1
            state.quietReconnections = brought ? 0 : state.quietReconnections + 1
            return policy.wait(base: serverTime ?? policy.delay, quietReconnections: state.quietReconnections)
        }
        guard let wait else { return end(summarized(result), discarding: false) }
        let timer = DispatchSource.makeTimerSource(queue: client.processingQueue)
        timer.schedule(deadline: .now() + wait)
        timer.setEventHandler { [self] in connect() }
        let isEnded = state.withLock { state -> Bool in
            if !state.isEnded { state.timer = timer }
            return state.isEnded
        }
        timer.resume()
        if isEnded { timer.cancel() }
    }

    // MARK: - The end

    /// What the stream amounted to so far, over every connection.
    var summary: StreamSummary {
        let progress = channel.progress
        let reconnects = state.withLock { $0.reconnects }
        return StreamSummary(
            bytesReceived: progress.bytesReceived, reconnects: reconnects, lastEventID: progress.lastEventID)
    }

    /// A success with the stream's summary in place of the connection's.
    private func summarized(_ result: APIResult<StreamSummary>) -> APIResult<StreamSummary> {
        guard case .success(_, let metadata) = result else { return result }
        return .success(summary, metadata)
    }

    /// Stops the connection and any wait, and ends the channel; the first end wins, except that a
    /// discarding end (cancel, failure) replaces one the reader has not taken yet.
    private func end(_ result: APIResult<StreamSummary>, discarding: Bool) {
        let (connection, timer) = state.withLock { state -> (RequestHandle?, (any DispatchSourceTimer)?) in
            state.isEnded = true
            defer {
                state.connection = nil
                state.timer = nil
            }
            return (state.connection, state.timer)
        }
        timer?.cancel()
        connection?.cancel()
        channel.end(with: result, discarding: discarding)
    }
}
