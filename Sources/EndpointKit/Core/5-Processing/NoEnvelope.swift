import Foundation

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
        -> EnvelopeContents<Payload>
    {
        EnvelopeContents(payload: try decoder.decode(Payload.self, from: body), info: nil)
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
