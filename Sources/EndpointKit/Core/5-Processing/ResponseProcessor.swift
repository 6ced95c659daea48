import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a transport outcome into an ``APIResult``: HTTP validation, envelope, model decoding.
///
/// Not generic itself (only its methods are, over the endpoint): a send builds one for each
/// response without looking up any type's metadata at run time.
struct ResponseProcessor: Sendable {
    let resolved: ResolvedRequest
    let urlRequest: URLRequest

    init(resolved: ResolvedRequest, urlRequest: URLRequest) {
        self.resolved = resolved
        self.urlRequest = urlRequest
    }

    /// Validates and decodes `outcome`. Inlined (with the step below) into the send's completion,
    /// which has looked up the result type already.
    @inline(__always)
    func process<Request: APIRequest>(
        _ outcome: Result<TransportResponse, TransportError>, for request: Request, elapsed: TimeInterval
    ) -> APIResult<Request.Response> {
        switch outcome {
        case .failure(let error):
            return .transportError(error)
        case .success(let transportResponse):
            let raw = ResponseMetadata(
                request: urlRequest, head: transportResponse.head, data: transportResponse.data, elapsed: elapsed)
            let body: Data
            do {
                body = try request.transformBody(transportResponse.data, metadata: raw)
            } catch {
                return .transportError(
                    TransportError(
                        .decodingFailed, message: "The body could not be transformed: \(error)", underlyingError: error,
                        metadata: raw))
            }
            // The default transformBody returns its input: no second metadata for the same bytes.
            let metadata = body.isSameStorage(as: transportResponse.data) ? raw : raw.replacingData(body)
            return process(metadata, for: request, fileURL: transportResponse.fileURL)
        }
    }

    @inline(__always)
    private func process<Request: APIRequest>(
        _ metadata: ResponseMetadata, for request: Request, fileURL: URL?
    ) -> APIResult<Request.Response> {
        let (validation, envelope, decoder) = (resolved.validation, resolved.envelope, resolved.decoder)
        guard validation.acceptableStatusCodes.contains(metadata.statusCode) else {
            let info = envelope.inspect(metadata.data, decoder: decoder)
            var metadata = metadata
            metadata.envelope = info
            return .serverFailure(
                ServerFailure(kind: .httpStatus, code: info?.code, message: info?.message, metadata: metadata))
        }
        // The header is only looked up when a list of acceptable types is set.
        if validation.acceptableContentTypes != nil, !metadata.data.isEmpty,
            case let contentType = metadata.header("Content-Type"), !validation.accepts(contentType: contentType)
        {
            return .transportError(
                TransportError(
                    .unacceptableContentType(contentType),
                    message: "The response's content type \(contentType ?? "(none)") is not acceptable.",
                    metadata: metadata))
        }
        switch checked(metadata, for: request, validation: validation) {
        case nil: break
        case .server(let failure): return .serverFailure(failure)
        case .transport(let error): return .transportError(error)
        }
        let context = DecodingContext(metadata: metadata, decoder: decoder, envelope: envelope, fileURL: fileURL)
        if let rule = validation.emptyBodyRule { context.emptyBodyRule = rule }
        do {
            let value = try request.decode(context)
            var metadata = metadata
            metadata.envelope = context.envelopeInfo
            return .success(value, metadata)
        } catch let failure as BusinessFailure {
            var metadata = metadata
            metadata.envelope =
                context.envelopeInfo ?? EnvelopeInfo(code: failure.code, message: failure.message, isSuccess: false)
            return .serverFailure(
                ServerFailure(kind: .businessStatus, code: failure.code, message: failure.message, metadata: metadata))
        } catch {
            return .transportError(
                TransportError(
                    .decodingFailed,
                    message:
                        "The response could not be decoded as \(Request.Response.self): \(error.readableDescription)",
                    underlyingError: error, metadata: metadata))
        }
    }
}

extension ResponseProcessor {
    /// The checks after the status and content-type rules: the request's `Accept` header when the
    /// validation asks for it, the client's validator, then the request's own `validate`. `nil`
    /// when the response passes. Not an `APIResult<Response>?`: an optional of a generic type is
    /// looked up in the runtime's metadata cache on every call (about 1.5 k instructions a request).
    @inline(never)
    private func checked<Request: APIRequest>(
        _ metadata: ResponseMetadata, for request: Request, validation: ResponseValidation
    ) -> APIFailure? {
        if validation.matchesAcceptHeader, !metadata.data.isEmpty {
            let contentType = metadata.header("Content-Type")
            let accept = metadata.request.value(forHTTPHeaderField: "Accept")
            if !ResponseValidation.accepts(contentType: contentType, accept: accept) {
                return .transport(
                    TransportError(
                        .unacceptableContentType(contentType),
                        message: "The response's content type \(contentType ?? "(none)") is not one the request's "
                            + "Accept header (\(accept ?? "")) names.",
                        metadata: metadata))
            }
        }
        do {
            try resolved.validator?(metadata)
            try request.validate(metadata)
            return nil
        } catch let failure as BusinessFailure {
            var metadata = metadata
            metadata.envelope = EnvelopeInfo(code: failure.code, message: failure.message, isSuccess: false)
            return .server(
                ServerFailure(kind: .businessStatus, code: failure.code, message: failure.message, metadata: metadata))
        } catch {
            return .transport(
                TransportError(
                    .badResponse, message: "The response failed validation: \(error.readableDescription)",
                    underlyingError: error, metadata: metadata))
        }
    }
}

extension Data {
    /// Whether this value is `other` itself, bit for bit (the same storage and range, or the same
    /// inline bytes), as a function that returned its argument unchanged gives it back. Equal
    /// bytes held elsewhere are not (`false` then, though the two are equal).
    func isSameStorage(as other: Data) -> Bool {
        var (mine, theirs) = (self, other)
        return Swift.withUnsafeBytes(of: &mine) { mine in
            Swift.withUnsafeBytes(of: &theirs) { theirs in
                guard let left = mine.baseAddress, let right = theirs.baseAddress else { return false }
                return memcmp(left, right, mine.count) == 0
            }
        }
    }
}

extension Error {
    /// A one-line description; for `DecodingError`, the key path and what was wrong.
    package var readableDescription: String {
        guard let error = self as? DecodingError else { return String(describing: self) }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(path(context))"
        case .valueNotFound(let type, let context):
            return "no \(type) value at \(path(context)): \(context.debugDescription)"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return "invalid data at \(path(context)): \(context.debugDescription)"
        @unknown default: return String(describing: error)
        }
    }
}
