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
    /// Where an empty body may decode (the validation's rule), or `nil` for anywhere; set by the
    /// client after it made the context.
    var emptyBodyRule: EmptyBodyRule?

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
    /// - `Data`: the raw body; `String`: the body as text in the charset of `Content-Type`
    ///   (UTF-8 when it names none; bytes that are not valid in it, or a charset Foundation cannot
    ///   decode everywhere, throw);
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

    /// `Data` as it is, `String` as text in the charset `Content-Type` names (UTF-8 when none).
    @inline(never)
    private func decodeText<Value>(_ type: Value.Type) throws -> Value {
        if Value.self == Data.self, let raw = data as? Value { return raw }
        let charset = TextCharset.name(inContentType: metadata.header("Content-Type")) ?? "utf-8"
        guard let encoding = TextCharset.encoding(named: charset) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The body's charset \(charset) is not one EndpointKit decodes.")
            )
        }
        guard let text = String(data: data, encoding: encoding) as? Value else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The body is not valid \(charset)."))
        }
        return text
    }

    /// What an empty body decodes to: ``Empty`` or `nil` for optional types, otherwise an error;
    /// an error too where the validation's rule expects no empty body.
    @inline(never)
    private func absentPayload<Value>(_ type: Value.Type) throws -> Value {
        if let rule = emptyBodyRule {
            let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
            guard rule.allows(status: metadata.statusCode, method: method) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [],
                        debugDescription:
                            "The body is empty, and HTTP \(metadata.statusCode) to \(method.rawValue) is not where the "
                            + "validation expects an empty body (emptyResponseStatusCodes, emptyResponseMethods)."))
            }
        }
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
