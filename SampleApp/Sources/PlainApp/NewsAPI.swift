import EndpointKit
import Foundation

/// Where the app's client is made: the backend, the session token, the plugins, the cache.
enum NewsAPI {
    /// A client for `baseURL` that signs requests with `token` and logs them to `log`.
    static func makeClient(baseURL: URL, token: String, log: RequestLog) -> APIClient {
        APIClient(baseURL: baseURL) {
            $0.defaultHeaders["Accept"] = "application/json"
            $0.interceptors = [TokenInterceptor(token: token)]
            $0.plugins = [log]
            $0.cache = ResponseCache(directory: nil)
            $0.timeouts.total = 10
        }
    }
}
