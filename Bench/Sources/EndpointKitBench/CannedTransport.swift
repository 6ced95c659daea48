@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that answers every request at once with the same response, made once, so that
/// scenarios 3 and 7 measure EndpointKit's own work (building, validation, envelope, decoding,
/// delivery) without the network and without the cost of making a response per request (on Linux
/// `HTTPURLResponse.init` alone costs more than the client core).
struct CannedTransport: Transport {
    private let response: TransportResponse?

    /// A transport answering `200` with `body` as JSON.
    init(body: Data) {
        response = HTTPURLResponse(
            url: URL(fileURLWithPath: "/canned"), statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/json", "Content-Length": String(body.count)]
        ).map { TransportResponse(response: $0, data: body) }
    }

    func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        if let response {
            completion(.success(response))
        } else {
            completion(.failure(TransportError(.badResponse, message: "Could not make the canned response.")))
        }
        return CompletedTask()
    }

    /// The task of a transfer that completed inside `execute`.
    private struct CompletedTask: TransportTask {
        func cancel() {}
    }
}
