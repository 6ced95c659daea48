@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Scenario 7's baseline: the least a caller of a ``Transport`` writes by hand for a `GET` with
/// a `Data` body. It builds the `URLRequest`, calls the transport's `execute`, waits for the
/// completion in a checked continuation, and checks the status: no registry, no handle, no stages.
struct CoreBaseline: Sendable {
    /// The name of this side in the report.
    static let name = "Transport.execute by hand"

    /// The base URL of both sides (never resolved: the transport answers in process).
    static let baseURL = URL(string: "http://bench.invalid")

    /// The largest body accepted, as EndpointKit's default configuration has it (64 MiB).
    static let maximumResponseSize = 64 * 1024 * 1024

    /// The transport EndpointKit's client sends through too.
    let transport: any Transport

    /// `GET /core`: the body of a 2xx response.
    /// - Throws: the transport's ``TransportError``, or ``BenchError/requestFailed(_:)`` for
    ///   another status.
    func data() async throws -> Data {
        guard let base = Self.baseURL else { throw BenchError.requestFailed("no base URL") }
        let request = TransportRequest(
            urlRequest: URLRequest(url: base.appendingPathComponent("core")),
            maximumResponseSize: Self.maximumResponseSize)
        let outcome = await withCheckedContinuation { continuation in
            _ = transport.execute(request) { continuation.resume(returning: $0) }
        }
        let response = try outcome.get()
        guard (200..<300).contains(response.response.statusCode) else {
            throw BenchError.requestFailed("status \(response.response.statusCode)")
        }
        return response.data
    }
}
