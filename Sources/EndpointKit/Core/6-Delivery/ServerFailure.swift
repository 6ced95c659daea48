import Foundation

/// The server answered, and the answer was "no".
///
/// Either the HTTP status was not acceptable (4xx, 5xx, or outside the request's
/// ``ResponseValidation/acceptableStatusCodes``), or the response envelope carried a business
/// status that is not success (`{"Error":{"ID":17,"Message":"expired"}}`). The raw body is always
/// kept, and ``decodeBody(as:decoder:)`` turns it into a typed error payload.
///
/// ```swift
/// if case .serverFailure(let failure) = await client.send(GetUser(id: 7)) {
///     switch failure.kind {
///     case .httpStatus: print("HTTP", failure.statusCode)           // 401, 404, 500...
///     case .businessStatus: print("refused:", failure.code ?? "-")  // HTTP 200, envelope said no
///     }
///     if failure.code == 7 || failure.code == "E_AUTH" { signIn() }
///     showToast(failure.message ?? "Something went wrong")
/// }
/// ```
public struct ServerFailure: Error, Sendable, CustomStringConvertible {
    /// Why the answer counts as a failure.
    public enum Kind: Sendable, Hashable {
        /// The HTTP status code was not acceptable.
        case httpStatus
        /// The HTTP status was acceptable but the envelope's business status was not success.
        case businessStatus
    }

    /// Why the answer counts as a failure: ``Kind/httpStatus`` or ``Kind/businessStatus``.
    public let kind: Kind
    /// The HTTP status code.
    public var statusCode: Int { metadata.statusCode }
    /// The business status or error code from the envelope, if any: `Error.ID` for
    /// `.errorIDResult()`, `status` for `.statusData()`, `errCode` (else `status`) for
    /// `.statusResult()`, the `code:` key path of a ``KeyPathEnvelope``.
    ///
    /// An ``EnvelopeScalar``, since backends send `7`, `"7"` or `"E_AUTH"`: compare it with a
    /// literal (`failure.code == 7`, `failure.code == "E_AUTH"`), or with
    /// ``EnvelopeScalar/matches(_:)`` to accept `7` and `"7"` alike. An HTTP failure whose body
    /// has the envelope's shape carries the envelope's code too.
    public let code: EnvelopeScalar?
    /// The human-readable message from the envelope, if any: `Error.Message` for
    /// `.errorIDResult()`, a `data` that is a string for `.statusData()`, `errMsg` for
    /// `.statusResult()`, the `message:` key path of a ``KeyPathEnvelope``.
    public let message: String?
    /// Status, headers, raw body and timing of the response.
    public let metadata: ResponseMetadata

    /// Creates a server failure. The client creates these; custom envelopes and decoders throw
    /// ``BusinessFailure`` instead.
    @_spi(Internal) public init(kind: Kind, code: EnvelopeScalar?, message: String?, metadata: ResponseMetadata) {
        self.kind = kind
        self.code = code
        self.message = message
        self.metadata = metadata
    }

    /// The raw response body.
    package var body: Data { metadata.data }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var bodyText: String { String(decoding: metadata.data, as: UTF8.self) }

    /// Decodes the raw body as a typed error payload, such as `{"error":"invalid_grant"}`.
    /// - Parameters:
    ///   - type: The payload type.
    ///   - decoder: The decoder to use; a plain `JSONDecoder` by default.
    /// - Returns: The decoded payload.
    public func decodeBody<Payload: Decodable>(
        as type: Payload.Type, decoder: JSONDecoder = JSONDecoder()
    ) throws
        -> Payload
    {
        try decoder.decode(Payload.self, from: metadata.data)
    }

    /// A one-line summary: status, code and message.
    public var description: String {
        var parts = ["HTTP \(statusCode)"]
        if let code { parts.append("code \(code)") }
        if let message { parts.append(message) }
        return (kind == .httpStatus ? "Server failure: " : "Business failure: ") + parts.joined(separator: ", ")
    }
}

/// Thrown by an envelope or a custom `decode` to report that the server said "no" in its body.
///
/// The client turns it into ``APIResult/serverFailure(_:)`` with kind
/// ``ServerFailure/Kind/businessStatus``.
public struct BusinessFailure: Error, Sendable, Hashable {
    /// The business status or error code.
    public var code: EnvelopeScalar?
    /// The message, if the body had one.
    public var message: String?

    /// Creates a business failure.
    public init(code: EnvelopeScalar?, message: String?) {
        self.code = code
        self.message = message
    }
}
