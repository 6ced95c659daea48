import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportResponse {
    /// Builds the response a test double hands back, applying the request's size cap as a real
    /// transport would.
    static func make(
        for request: TransportRequest, status: Int, headers: [String: String], body: Data
    ) -> Result<TransportResponse, TransportError> {
        let label = request.urlRequest.label
        guard body.count <= request.maximumResponseSize else {
            return .failure(
                TransportError(
                    .responseTooLarge(limit: request.maximumResponseSize),
                    message: "The response to \(label) is larger than \(request.maximumResponseSize) bytes."))
        }
        guard let url = request.urlRequest.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            return .failure(TransportError(.badResponse, message: "Could not build a response for \(label)."))
        }
        return .success(TransportResponse(response: response, data: body))
    }
}

extension URLRequest {
    /// `METHOD URL`, to name a request in messages.
    var label: String { "\(httpMethod ?? "GET") \(url?.absoluteString ?? "<no URL>")" }
}
