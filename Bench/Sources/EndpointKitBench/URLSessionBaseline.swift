import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client a user would write by hand instead of EndpointKit: one `URLSession`, async
/// `data(for:)`, a status check and a `JSONDecoder`.
final class URLSessionBaseline: Sendable {
    private let session: URLSession
    private let baseURL: URL
    private let decoder = JSONDecoder()

    /// Creates the baseline with its own session.
    /// - Parameters:
    ///   - baseURL: The server.
    ///   - configuration: The session configuration, the same one EndpointKit's transport gets.
    init(baseURL: URL, configuration: URLSessionConfiguration) {
        self.baseURL = baseURL
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// `GET /model`, decoded.
    func user() async throws -> UserModel {
        let request = URLRequest(url: baseURL.appendingPathComponent("model"))
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw BenchError.requestFailed("URLSession: unexpected response \(response)")
        }
        return try decoder.decode(UserModel.self, from: data)
    }
}
