@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streaming: the stage of every connection of a stream (``StreamingRequest``).
///
/// Before an attempt it gives the transport a new ``StreamConnection`` as the body sink (for an
/// event stream also `Accept: text/event-stream` and the `Last-Event-ID` to resume from); after
/// it, the last line of a body that ended normally is counted, or, when the transport collected
/// the body instead of streaming it, the body is cut into pieces now. A failed attempt is retried
/// only before it delivered anything: later, a retry would deliver the same elements again.
final class StreamingStage: RequestStage {
    private let channel: StreamChannel
    private let accepts: @Sendable (HTTPURLResponse) -> Bool
    private let isEventStream: Bool
    private let current = Locked<StreamConnection?>(nil)

    var hooks: StageHooks { [.willSend, .didReceive, .retry] }

    /// - Parameters:
    ///   - validation: What the request accepts: only an accepted response's body is streamed,
    ///     any other is collected and becomes a failure with its body.
    init(channel: StreamChannel, validation: ResponseValidation) {
        self.channel = channel
        let isEventStream = channel.framing == .events
        self.isEventStream = isEventStream
        accepts = { response in
            validation.acceptableStatusCodes.contains(response.statusCode)
                && !(isEventStream && response.statusCode == 204)
                && validation.accepts(contentType: response.value(forHTTPHeaderField: "Content-Type"))
        }
    }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        let connection = channel.connect(accepting: accepts)
        current.withLock { $0 = connection }
        request.bodySink = connection
        guard isEventStream else { return nil }
        if request.urlRequest.value(forHTTPHeaderField: "Accept") == nil {
            request.urlRequest.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        }
        if request.urlRequest.value(forHTTPHeaderField: "Cache-Control") == nil {
            request.urlRequest.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        }
        let lastEventID = channel.progress.lastEventID
        if !lastEventID.isEmpty { request.urlRequest.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        return nil
    }

    func didReceive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext
    ) {
        guard case .success(var response) = outcome, let connection = current.withLock({ $0 }) else { return }
        if connection.isOpen {
            connection.finishBody()
        } else if accepts(response.response) {
            connection.consumeCollected(response.data)
            response.data = Data()
            outcome = .success(response)
        }
    }

    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        channel.connectionFrames > 0 ? .stop : .noOpinion
    }
}
