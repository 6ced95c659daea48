import Foundation

/// Splits a response body into business status, message and payload.
///
/// Many backends wrap every answer: `{"status":200,"errMsg":null,"result":{...}}`. An envelope
/// finds the payload for the model decoder and tells a business failure apart from success.
/// EndpointKit ships ``KeyPathEnvelope`` (configurable key paths, with presets for the common
/// shapes) and ``NoEnvelope`` (the body is the payload).
///
/// Implement this protocol for a shape the presets cannot describe.
public protocol ResponseEnvelope: Sendable {
    /// Decodes the payload of a body that passed HTTP validation.
    ///
    /// - Parameters:
    ///   - body: The raw body.
    ///   - type: The payload type to decode.
    ///   - decoder: The decoder configured for the request.
    /// - Returns: The payload and what the envelope said.
    /// - Throws: ``BusinessFailure`` when the business status is not success; any other error
    ///   when the body does not have the envelope's shape or the payload does not decode.
    func open<Payload: Decodable>(
        _ body: Data, as type: Payload.Type, decoder: JSONDecoder
    ) throws
        -> EnvelopeContents<Payload>

    /// Reads status, code and message from a body without decoding a payload, for error responses
    /// (HTTP 4xx/5xx) and bodies whose payload is not needed. Returns `nil` when the body does
    /// not have the envelope's shape.
    func inspect(_ body: Data, decoder: JSONDecoder) -> EnvelopeInfo?
}

/// A decoded payload with what the envelope said about it.
public struct EnvelopeContents<Payload> {
    /// The payload.
    public var payload: Payload
    /// Status, message and paging, when the envelope has them (`nil` for ``NoEnvelope``).
    public var info: EnvelopeInfo?

    /// Creates envelope contents.
    public init(payload: Payload, info: EnvelopeInfo?) {
        self.payload = payload
        self.info = info
    }
}

extension ResponseEnvelope where Self == NoEnvelope {
    /// No envelope: the body is the payload.
    public static var none: NoEnvelope { NoEnvelope() }
}

extension ResponseEnvelope where Self == KeyPathEnvelope {
    /// `{"Error":{"ID":0,"Message":null},"Result":{...}}`: success when `Error.ID` is `0`.
    public static var errorIDResult: KeyPathEnvelope { .errorIDResult() }

    /// `{"Error":{"ID":0,"Message":null},"Result":{...}}` with other success values.
    public static func errorIDResult(success: [EnvelopeScalar] = [0]) -> KeyPathEnvelope {
        KeyPathEnvelope(status: "Error.ID", success: success, message: "Error.Message", payload: "Result")
    }

    /// `{"status":500,"data":...}`: success when `status` is one of `success` (`500` by default,
    /// as in the backend it was written for); on failure a string `data` is the message.
    public static func statusData(success: [EnvelopeScalar] = [500]) -> KeyPathEnvelope {
        KeyPathEnvelope(status: "status", success: success, payload: "data", payloadStringIsFailureMessage: true)
    }

    /// `{"status":200,"errCode":"..","errMsg":"..","page":{...},"result":[...]}`: success when
    /// `status` is `200`; `errCode` is the business code and `errMsg` the message.
    public static func statusResult(success: [EnvelopeScalar] = [200]) -> KeyPathEnvelope {
        KeyPathEnvelope(
            status: "status", success: success, code: "errCode", message: "errMsg", payload: "result", page: "page")
    }
}
