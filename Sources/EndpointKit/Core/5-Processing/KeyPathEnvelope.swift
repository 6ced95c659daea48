import Foundation

/// An envelope described by key paths: where the status, code, message, payload and paging live,
/// and which status values mean success.
///
/// Key paths are dot-separated (`"Error.ID"`); an empty payload path means the whole body.
/// Envelope and payload are decoded in one pass with the request's `JSONDecoder`: no
/// `JSONSerialization` round trip.
///
/// ```swift
/// let envelope = KeyPathEnvelope(status: "code", success: [0], message: "msg", payload: "data")
/// ```
public struct KeyPathEnvelope: ResponseEnvelope, Hashable {
    /// Where the business status is (required in every body).
    var statusPath: [String]
    /// Status values that mean success; compared across JSON types (`0` matches `"0"`).
    var successValues: [EnvelopeScalar]
    /// Where a separate business error code is, if any (else the status is the code).
    var codePath: [String]?
    /// Where the message is, if any.
    var messagePath: [String]?
    /// Where the payload is; empty for the whole body.
    var payloadPath: [String]
    /// Where paging information is, if any.
    var pagePath: [String]?
    /// Whether a string payload on failure is the message (`{"status":1,"data":"expired"}`).
    var payloadStringIsFailureMessage: Bool

    /// Creates an envelope from dot-separated key paths.
    /// - Parameters:
    ///   - status: The status key path, for example `"Error.ID"`.
    ///   - success: The status values that mean success.
    ///   - code: The business code key path, `nil` by default (the status is the code).
    ///   - message: The message key path, `nil` by default.
    ///   - payload: The payload key path; `""` for the whole body.
    ///   - page: The paging key path, `nil` by default.
    ///   - payloadStringIsFailureMessage: Whether a string payload on failure is the message.
    public init(
        status: String, success: [EnvelopeScalar], code: String? = nil, message: String? = nil, payload: String,
        page: String? = nil, payloadStringIsFailureMessage: Bool = false
    ) {
        func split(_ path: String) -> [String] { path.split(separator: ".").map(String.init) }
        statusPath = split(status)
        successValues = success
        codePath = code.map(split)
        messagePath = message.map(split)
        payloadPath = split(payload)
        pagePath = page.map(split)
        self.payloadStringIsFailureMessage = payloadStringIsFailureMessage
    }

    /// Decodes status and, on success, the payload in one pass.
    public func open<Payload: Decodable>(
        _ body: Data, as type: Payload.Type, decoder: JSONDecoder
    ) throws
        -> (payload: Payload, info: EnvelopeInfo?)
    {
        let box = try EnvelopeDecoding.$envelope.withValue(self) {
            try decoder.decode(EnvelopeBody<Payload>.self, from: body)
        }
        guard box.info.isSuccess, let payload = box.payload else {
            throw BusinessFailure(code: box.info.code, message: box.info.message)
        }
        return (payload: payload, info: box.info)
    }

    /// Reads status, code and message without decoding the payload.
    public func inspect(_ body: Data, decoder: JSONDecoder) -> EnvelopeInfo? {
        guard !body.isEmpty else { return nil }
        return try? EnvelopeDecoding.$envelope.withValue(self) {
            try decoder.decode(EnvelopeBody<SkippedPayload>.self, from: body)
        }.info
    }

    func isSuccess(_ status: EnvelopeScalar) -> Bool { successValues.contains { $0.matches(status) } }
}

/// A payload type that is never decoded, for ``KeyPathEnvelope/inspect(_:decoder:)``.
struct SkippedPayload: Decodable {
    init(from decoder: any Decoder) throws {}
}
