import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything a request needs to turn a validated response into its `Response` value.
///
/// Passed to ``APIRequest/decode(_:)``. Custom decoders read ``data`` and may call
/// ``decodeDefault(_:)`` for the standard path (raw `Data`, `String`, ``Empty``, or `Decodable`
/// through the envelope). Throw ``BusinessFailure`` to report a "no" found in the body.
public final class DecodingContext {
    /// The raw response body.
    public let data: Data
    /// The HTTP response (made when first read; ``metadata`` has the status and headers without it).
    var response: HTTPURLResponse { metadata.response }
    /// The response's status, headers and request.
    public let metadata: ResponseMetadata
    /// The request as sent.
    let request: URLRequest
    /// The decoder configured for the request (the request's override, or the client's).
    public let decoder: JSONDecoder
    /// The envelope configured for the request (the request's override, or the client's).
    public let envelope: any ResponseEnvelope
    /// What the envelope reported; set by ``decodeDefault(_:)``, or by a custom decoder.
    public var envelopeInfo: EnvelopeInfo?
    /// The file holding the body, for a request whose response is a downloaded file; ``data`` is then
    /// empty.
    public let fileURL: URL?

    /// Creates a context. The client does this; tests of custom decoders may too.
    public convenience init(
        data: Data, response: HTTPURLResponse, request: URLRequest, decoder: JSONDecoder,
        envelope: any ResponseEnvelope,
        fileURL: URL? = nil
    ) {
        self.init(
            metadata: ResponseMetadata(request: request, response: response, data: data, elapsed: 0), decoder: decoder,
            envelope: envelope, fileURL: fileURL)
    }

    /// Creates a context for the body in `metadata`.
    package init(metadata: ResponseMetadata, decoder: JSONDecoder, envelope: any ResponseEnvelope, fileURL: URL?) {
        self.metadata = metadata
        self.fileURL = fileURL
        data = metadata.data
        request = metadata.request
        self.decoder = decoder
        self.envelope = envelope
    }

    /// The standard decoding of a body:
    /// - `Data`: the raw body; `String`: the body as UTF-8 text (invalid UTF-8 throws);
    /// - an empty body: ``Empty`` or `nil` for optional types, otherwise an error;
    /// - ``Empty`` with a body: the envelope's business status is still checked;
    /// - any other `Decodable`: the envelope's payload, decoded in one pass.
    /// - Throws: ``BusinessFailure`` for a failing business status, `DecodingError` otherwise.
    public func decodeDefault<Value: Decodable>(_ type: Value.Type) throws -> Value {
        // Type comparisons first: a cast to an unrelated type costs a run-time lookup on every
        // response. The rarer paths are functions of their own, so that this one, run for every
        // response, looks up no generic type it does not use.
        if Value.self == Data.self || Value.self == String.self { return try decodeText(Value.self) }
        // Over the bytes, not `Data`'s iterator: this runs on every response, and stops at the
        // first byte of nearly all of them.
        if data.withUnsafeBytes({ $0.allSatisfy(\.isJSONWhitespace) }) { return try absentPayload(Value.self) }
        if Value.self == Empty.self, let empty = try checkedEmpty() as? Value { return empty }
        // No envelope (the usual case): the body is the payload, decoded here rather than through
        // `open`, whose generic result would be looked up at run time on every response.
        if Swift.type(of: envelope) == NoEnvelope.self { return try decoder.decode(Value.self, from: data) }
        return try openEnvelope(Value.self)
    }

    /// `Data` as it is, `String` as UTF-8 text.
    @inline(never)
    private func decodeText<Value>(_ type: Value.Type) throws -> Value {
        if Value.self == Data.self, let raw = data as? Value { return raw }
        guard let text = String(data: data, encoding: .utf8) as? Value else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The body is not valid UTF-8."))
        }
        return text
    }

    /// What an empty body decodes to: ``Empty`` or `nil` for optional types, otherwise an error.
    @inline(never)
    private func absentPayload<Value>(_ type: Value.Type) throws -> Value {
        if let absent = MissingPayload.value(of: Value.self) { return absent }
        throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "The body is empty; expected \(Value.self)."))
    }

    /// ``Empty`` for a body that is not empty: the envelope's business status is still checked.
    @inline(never)
    private func checkedEmpty() throws -> Empty {
        let empty = Empty()
        // NoEnvelope has no business status: a 2xx body such as `{"message":"Deleted"}` is
        // success, even though `inspect` reads it as an error message.
        if envelope is NoEnvelope { return empty }
        envelopeInfo = envelope.inspect(data, decoder: decoder)
        if let info = envelopeInfo, !info.isSuccess {
            throw BusinessFailure(code: info.code, message: info.message)
        }
        return empty
    }

    /// The payload inside the envelope, and what the envelope reported.
    @inline(never)
    private func openEnvelope<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let contents = try envelope.open(data, as: Value.self, decoder: decoder)
        envelopeInfo = contents.info
        return contents.payload
    }
}

extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
