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
    /// - Returns: The payload and what the envelope said about it: status, message and paging, or
    ///   `nil` when the envelope has none (as for ``NoEnvelope``).
    /// - Throws: ``BusinessFailure`` when the business status is not success; any other error
    ///   when the body does not have the envelope's shape or the payload does not decode.
    func open<Payload: Decodable>(
        _ body: Data, as type: Payload.Type, decoder: JSONDecoder
    ) throws
        -> (payload: Payload, info: EnvelopeInfo?)

    /// Reads status, code and message from a body without decoding a payload, for error responses
    /// (HTTP 4xx/5xx) and bodies whose payload is not needed. Returns `nil` when the body does
    /// not have the envelope's shape.
    func inspect(_ body: Data, decoder: JSONDecoder) -> EnvelopeInfo?
}

extension ResponseEnvelope where Self == KeyPathEnvelope {
    /// `{"Error":{"ID":0,"Message":"..."},"Result":{...}}`, the APIClient / APIResult shape.
    ///
    /// - `Error.ID` is the business status: the body is a success when it is one of `success`
    ///   (`0` by default) and the payload is `Result`. On failure ``ServerFailure/code`` is
    ///   `Error.ID` and ``ServerFailure/message`` is `Error.Message`.
    /// - No paging information is read; `Result` holds whatever the payload is.
    ///
    /// ```swift
    /// let client = APIClient(baseURL: URL(string: "https://api.example.com")) {
    ///     $0.envelope = .errorIDResult()                 // success when Error.ID == 0
    /// }
    /// // {"Error":{"ID":17,"Message":"Session expired"},"Result":null}
    /// //   -> .serverFailure: kind .businessStatus, code 17, message "Session expired"
    /// ```
    ///
    /// Every preset is a function, so it can take other success values:
    /// `.errorIDResult(success: [0, 200])`.
    public static func errorIDResult(success: [EnvelopeScalar] = [0]) -> KeyPathEnvelope {
        KeyPathEnvelope(status: "Error.ID", success: success, message: "Error.Message", payload: "Result")
    }

    /// `{"status":500,"data":...}`: success when `status` is one of `success`.
    ///
    /// - The default success status is `500`, as in the backend this shape comes from (its
    ///   `500` meant "done"); pass `success: [200]` or `[0]` if yours says success otherwise.
    /// - On success the payload is `data`. On failure ``ServerFailure/code`` is `status`, and a
    ///   `data` that is a string is ``ServerFailure/message`` (this shape has no message field).
    ///
    /// ```swift
    /// $0.envelope = .statusData()                      // {"status":500,"data":{...}} is success
    /// $0.envelope = .statusData(success: [200])        // a backend whose success is 200
    /// // {"status":403,"data":"Not your album"} -> code 403, message "Not your album"
    /// ```
    public static func statusData(success: [EnvelopeScalar] = [500]) -> KeyPathEnvelope {
        KeyPathEnvelope(status: "status", success: success, payload: "data", payloadStringIsFailureMessage: true)
    }

    /// `{"status":200,"errCode":"..","errMsg":"..","page":{...},"result":[...]}`.
    ///
    /// - Success when `status` is one of `success` (`200` by default); the payload is `result`.
    /// - On failure ``ServerFailure/code`` is `errCode` (`status` when the body has no `errCode`)
    ///   and ``ServerFailure/message`` is `errMsg`.
    /// - `page` becomes ``EnvelopeInfo/page`` (a ``PageInfo``), which paging reads.
    ///
    /// ```swift
    /// $0.envelope = .statusResult()
    /// // {"status":400,"errCode":"E_AUTH","errMsg":"Please sign in","result":null}
    /// //   -> .serverFailure: code "E_AUTH", message "Please sign in"
    /// ```
    public static func statusResult(success: [EnvelopeScalar] = [200]) -> KeyPathEnvelope {
        KeyPathEnvelope(
            status: "status", success: success, code: "errCode", message: "errMsg", payload: "result", page: "page")
    }
}

/// No envelope: the whole body is the payload and success is decided by the HTTP status alone.
///
/// For error responses, ``inspect(_:decoder:)`` still picks a message out of the common REST
/// shapes (`{"message": ...}`, `{"error": "..."}`, `{"error": {"message": ...}}`,
/// `{"error_description": ...}`, `{"detail": ...}`) so ``ServerFailure/message`` is useful.
public struct NoEnvelope: ResponseEnvelope, Hashable {
    /// Creates the pass-through envelope.
    public init() {}

    /// Decodes the whole body as the payload.
    public func open<Payload: Decodable>(
        _ body: Data, as type: Payload.Type, decoder: JSONDecoder
    ) throws
        -> (payload: Payload, info: EnvelopeInfo?)
    {
        (payload: try decoder.decode(Payload.self, from: body), info: nil)
    }

    /// Finds a message in common error body shapes; `nil` when there is none.
    public func inspect(_ body: Data, decoder: JSONDecoder) -> EnvelopeInfo? {
        guard !body.isEmpty, let shape = try? decoder.decode(CommonErrorShape.self, from: body) else { return nil }
        guard let message = shape.message else { return nil }
        return EnvelopeInfo(code: shape.code, message: message, isSuccess: false)
    }
}

/// The error body shapes ``NoEnvelope`` understands.
private struct CommonErrorShape: Decodable {
    var message: String?
    var code: EnvelopeScalar?

    private struct NestedError: Decodable {
        var message: String?
        var code: EnvelopeScalar?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        func string(_ key: String) -> String? { try? container.decodeIfPresent(String.self, forKey: AnyCodingKey(key)) }
        code = try? container.decodeIfPresent(EnvelopeScalar.self, forKey: AnyCodingKey("code"))
        if let nested = try? container.decodeIfPresent(NestedError.self, forKey: AnyCodingKey("error")) {
            message = nested.message
            code = code ?? nested.code
        }
        message =
            message ?? string("message") ?? string("error_description") ?? string("error") ?? string("detail")
            ?? string("msg")
    }
}
