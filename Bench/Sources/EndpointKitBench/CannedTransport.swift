import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers every request at once with the same body, so scenario 3 measures
/// EndpointKit's validation, envelope and decoding without the network.
struct CannedTransport: Transport {
    let body: Data

    func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        let url = request.urlRequest.url ?? URL(fileURLWithPath: "/")
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "Content-Length": String(body.count)])
        else {
            completion(.failure(TransportFailure(.badResponse, message: "Could not make the canned response.")))
            return CompletedTask()
        }
        completion(.success(TransportResponse(response: response, data: body)))
        return CompletedTask()
    }

    /// The task of a transfer that completed inside `execute`.
    private struct CompletedTask: TransportTask {
        func cancel() {}
    }
}
