import Dispatch
import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The two clients every network scenario compares, configured alike.
enum BenchClients {
    /// The session configuration both sides use: `.default` without `URLCache` (EndpointKit's
    /// transport switches it off, so the baseline does too), and `maxConnections` connections per
    /// host when given (the in-flight width of the concurrent scenarios).
    static func sessionConfiguration(maxConnections: Int? = nil) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        if let maxConnections { configuration.httpMaximumConnectionsPerHost = maxConnections }
        return configuration
    }

    /// An EndpointKit client as a user would set it up, with callbacks on a private queue and
    /// `cache` as its response cache (none by default).
    static func endpointKit(baseURL: URL, maxConnections: Int? = nil, cache: ResponseCache? = nil) -> APIClient {
        let transport = URLSessionTransport(configuration: sessionConfiguration(maxConnections: maxConnections))
        var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
        configuration.cache = cache
        return APIClient(configuration: configuration)
    }

    /// The hand-written URLSession baseline with the same session configuration.
    static func baseline(baseURL: URL, maxConnections: Int? = nil) -> URLSessionBaseline {
        URLSessionBaseline(baseURL: baseURL, configuration: sessionConfiguration(maxConnections: maxConnections))
    }
}
