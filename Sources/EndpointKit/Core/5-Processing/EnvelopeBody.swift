import Foundation

/// The decoding box behind ``KeyPathEnvelope``: walks the configured key paths inside one
/// `JSONDecoder` pass. The envelope is handed over in a task-local value because `JSONDecoder`
/// offers no per-call context before macOS 14.
struct EnvelopeBody<Payload: Decodable>: Decodable {

    let info: EnvelopeInfo
    let payload: Payload?

    init(from decoder: any Decoder) throws {
        guard let envelope = EnvelopeDecoding.envelope else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No envelope configured."))
        }
        guard let status = try Self.decode(EnvelopeScalar.self, at: envelope.statusPath, in: decoder) else {
            throw DecodingError.keyNotFound(
                AnyCodingKey(envelope.statusPath.joined(separator: ".")),
                .init(
                    codingPath: [],
                    debugDescription: "The envelope has no status at \(envelope.statusPath.joined(separator: "."))."))
        }
        let isSuccess = envelope.isSuccess(status)
        let code = envelope.codePath.flatMap { try? Self.decode(EnvelopeScalar.self, at: $0, in: decoder) } ?? status
        var message = envelope.messagePath.flatMap { try? Self.decode(String.self, at: $0, in: decoder) }
        let page = envelope.pagePath.flatMap { try? Self.decode(PageInfo.self, at: $0, in: decoder) }

        if Payload.self == SkippedPayload.self || !isSuccess {
            payload = nil
            if message == nil, envelope.payloadStringIsFailureMessage, !envelope.payloadPath.isEmpty {
                message = try? Self.decode(String.self, at: envelope.payloadPath, in: decoder)
            }
        } else if envelope.payloadPath.isEmpty {
            payload = try Payload(from: decoder)
        } else if let value = try Self.decode(Payload.self, at: envelope.payloadPath, in: decoder) {
            payload = value
        } else if let absent = MissingPayload.value(of: Payload.self) {
            payload = absent
        } else {
            throw DecodingError.valueNotFound(
                Payload.self,
                .init(
                    codingPath: [],
                    debugDescription: "The envelope has no payload at \(envelope.payloadPath.joined(separator: "."))."))
        }
        info = EnvelopeInfo(status: status, code: code, message: message, page: page, isSuccess: isSuccess)
    }

    /// Decodes the value at `path`, or `nil` when a key on the way is missing or `null`.
    static func decode<Value: Decodable>(
        _ type: Value.Type, at path: [String], in decoder: any Decoder
    ) throws -> Value? {
        guard let last = path.last else { return try Value(from: decoder) }
        var container = try decoder.container(keyedBy: AnyCodingKey.self)
        for key in path.dropLast() {
            let codingKey = AnyCodingKey(key)
            guard container.contains(codingKey), try !container.decodeNil(forKey: codingKey) else { return nil }
            container = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: codingKey)
        }
        return try container.decodeIfPresent(Value.self, forKey: AnyCodingKey(last))
    }
}

/// What a missing or `null` payload decodes to, for payload types that allow it.
enum MissingPayload {
    static func value<Payload>(of type: Payload.Type) -> Payload? {
        if let empty = Empty() as? Payload { return empty }
        if let optional = type as? any ExpressibleByNilLiteral.Type { return optional.init(nilLiteral: ()) as? Payload }
        return nil
    }
}

/// The envelope being decoded, for ``EnvelopeBody`` (generic types cannot hold task-locals).
enum EnvelopeDecoding {
    @TaskLocal static var envelope: KeyPathEnvelope?
}
