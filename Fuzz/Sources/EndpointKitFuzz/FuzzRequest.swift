import Foundation

@testable import EndpointKit

/// A request whose every part comes from the fuzzer, built with a shared client.
struct FuzzRequest: APIRequest {
    typealias Response = Data

    /// One client for the whole run; only `urlRequest(for:)` is used, nothing is sent.
    static let client = APIClient(configuration: APIClient.Configuration(baseURL: URL(string: "https://fuzz.example")))

    var baseURL: URL?
    var path: RequestPath = "/"
    var parameters: RequestParameters = .none
    var headers = HTTPHeaders.empty
}
