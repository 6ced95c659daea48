import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One feature's part in a send: the hooks ``RequestExecution`` calls at fixed points of every
/// attempt. Every hook has a default that does nothing.
///
/// When a send starts, the client asks each of its features (``ClientFeature``, made once per
/// client from its configuration) for a stage; a feature that does not apply to the request gives
/// none, so a request pays only for the features it uses. Stages see an attempt in the order the
/// features are listed on the way out (``willSend(_:context:)``), and in reverse order on the way
/// back (``didReceive(_:source:request:context:)``, ``didProcess(_:response:source:)``), like
/// layers around the transport.
///
/// The protocol is internal: features live in this module, and what users plug in has its own
/// public protocols (``RequestInterceptor``, ``RequestRetrier``, ``APIPlugin``, ``Transport``).
package protocol RequestStage: Sendable {
    /// The hooks this stage implements; the execution calls only those.
    var hooks: StageHooks { get }

    /// Changes the request of an attempt before anything else sees it (interceptors).
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// The attempt is about to be sent: change it (conditional headers, a `Range`, a download
    /// target), or answer it at once (a cache hit, no network). Later stages are then not asked
    /// and nothing is sent; a failure answered here goes to the retriers like any other.
    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer?
    /// Where the attempt goes: `next` (the client's transport), or something in front of it.
    func route(_ next: any AttemptSender) -> any AttemptSender

    /// The transport's outcome, before validation and decoding (a `304` becomes the cached
    /// response it confirmed).
    func didReceive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext)
    /// The attempt's result (store a response, move a download into place).
    func didProcess<Value: Sendable>(
        _ result: APIResult<Value>, response: TransportResponse?, source: ResponseSource
    ) -> APIResult<Value>

    /// What to do with a failed attempt (see ``RequestRetrier``).
    func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision

    /// The request failed without a usable answer: an answer to give instead (a stale cached
    /// response when offline), or `nil`.
    func fallback(for error: TransportError) -> StageAnswer?
    /// The request completed with `result`, which is about to be delivered (clean up, observe).
    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext, handle: RequestHandle)
}

extension RequestStage {
    package func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
    package func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? { nil }
    package func route(_ next: any AttemptSender) -> any AttemptSender { next }
    package func didReceive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext
    ) {}
    package func didProcess<Value: Sendable>(
        _ result: APIResult<Value>, response: TransportResponse?, source: ResponseSource
    ) -> APIResult<Value> {
        result
    }
    package func retry(after failure: APIFailure, request: URLRequest, context: RequestContext) async -> RetryDecision {
        .noOpinion
    }
    package func fallback(for error: TransportError) -> StageAnswer? { nil }
    package func didComplete<Value: Sendable>(
        _ result: APIResult<Value>, context: RequestContext, handle: RequestHandle
    ) {}
}

/// The hooks of a ``RequestStage``, so that the execution skips the others.
package struct StageHooks: OptionSet, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``RequestStage/adapt(_:context:)``.
    package static let adapt = StageHooks(rawValue: 1 << 0)
    /// ``RequestStage/willSend(_:context:)``.
    package static let willSend = StageHooks(rawValue: 1 << 1)
    /// ``RequestStage/route(_:)``.
    package static let route = StageHooks(rawValue: 1 << 2)
    /// ``RequestStage/didReceive(_:source:request:context:)``.
    package static let didReceive = StageHooks(rawValue: 1 << 3)
    /// ``RequestStage/didProcess(_:response:source:)``.
    package static let didProcess = StageHooks(rawValue: 1 << 4)
    /// ``RequestStage/retry(after:request:context:)``.
    package static let retry = StageHooks(rawValue: 1 << 5)
    /// ``RequestStage/fallback(for:)``.
    package static let fallback = StageHooks(rawValue: 1 << 6)
    /// ``RequestStage/didComplete(_:context:handle:)``.
    package static let didComplete = StageHooks(rawValue: 1 << 7)
}

/// A stage's answer to a request in place of the network's.
package enum StageAnswer: Sendable {
    /// A response to validate and decode as if it had come from `source`.
    case response(TransportResponse, source: ResponseSource)
    /// A failure to complete with.
    case failure(TransportError)
}
