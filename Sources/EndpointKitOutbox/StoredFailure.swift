@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``/EndpointKit/APIFailure`` as an outbox file keeps it (a dead letter's reason, a result not yet handed
/// over), and made again from the file after a relaunch.
struct StoredFailure: Codable, Sendable {
    /// Whether the server answered (a ``/EndpointKit/ServerFailure``); otherwise a ``/EndpointKit/TransportError``.
    var isServerFailure: Bool
    var isBusinessStatus: Bool
    var code: EnvelopeScalar?
    var message: String?
    /// The name of the ``/EndpointKit/TransportError/Reason``, for a transport error.
    var reason: String?
    /// The value a reason carries (a content type, a size limit).
    var reasonDetail: String?
    /// The response, when there was one.
    var response: StoredResponse?
    var body: Data?

    init(_ failure: APIFailure) {
        switch failure {
        case .server(let failure):
            isServerFailure = true
            isBusinessStatus = failure.kind == .businessStatus
            code = failure.code
            message = failure.message
            response = StoredResponse(failure.metadata)
            body = failure.metadata.data
        case .transport(let error):
            isServerFailure = false
            isBusinessStatus = false
            message = error.message
            (reason, reasonDetail) = Self.name(of: error.reason)
            response = error.metadata.map(StoredResponse.init)
            body = error.metadata?.data
        }
    }

    /// The failure again; `nil` when the file's values cannot make one.
    var failure: APIFailure? {
        let metadata = response?.metadata(body: body ?? Data())
        if isServerFailure {
            guard let metadata else { return nil }
            return .server(
                ServerFailure(
                    kind: isBusinessStatus ? .businessStatus : .httpStatus, code: code, message: message,
                    metadata: metadata))
        }
        let reason = reason.flatMap { Self.reason(named: $0, detail: reasonDetail) } ?? .other
        return .transport(TransportError(reason, message: message ?? "", metadata: metadata))
    }

    private static func name(of reason: TransportError.Reason) -> (String, String?) {
        switch reason {
        case .unacceptableContentType(let type): return ("unacceptableContentType", type)
        case .responseTooLarge(let limit): return ("responseTooLarge", String(limit))
        default: return (String(describing: reason), nil)
        }
    }

    private static let plainReasons: [TransportError.Reason] = [
        .timedOut, .notConnected, .cannotConnect, .cannotFindHost, .connectionLost, .cancelled, .tls,
        .tooManyRedirects, .insecureRedirect, .badResponse, .decodingFailed, .requestBuildFailed, .localFileError,
        .notCached, .unsupportedURL, .other,
    ]

    private static func reason(named name: String, detail: String?) -> TransportError.Reason? {
        switch name {
        case "unacceptableContentType": return .unacceptableContentType(detail)
        case "responseTooLarge": return .responseTooLarge(limit: detail.flatMap { Int($0) } ?? 0)
        default: return plainReasons.first { String(describing: $0) == name }
        }
    }
}

/// A response as an outbox file keeps it: enough to make its ``/EndpointKit/ResponseMetadata`` again.
struct StoredResponse: Codable, Sendable {
    var url: String
    var method: String
    var statusCode: Int
    var headers: [EntryRecord.Field]
    var elapsed: Double

    init(_ metadata: ResponseMetadata) {
        url = metadata.request.url?.absoluteString ?? metadata.response.url?.absoluteString ?? ""
        method = metadata.request.httpMethod ?? "GET"
        statusCode = metadata.statusCode
        headers = metadata.headers.map { EntryRecord.Field(name: $0.name, value: $0.value) }
        elapsed = metadata.elapsed
    }

    /// The metadata with `body`; `nil` when the stored values are not a response.
    func metadata(body: Data) -> ResponseMetadata? {
        guard let url = URL(string: url),
            let head = ResponseHead(url: url, statusCode: statusCode, fields: headers.map { ($0.name, $0.value) })
        else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        return ResponseMetadata(request: request, head: head, data: body, elapsed: elapsed)
    }
}
