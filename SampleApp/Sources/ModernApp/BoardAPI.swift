import EndpointKit
import Foundation

/// Where the app's client is made: the backend, the session, the plugins, the cache.
enum BoardAPI {
    /// A client for `baseURL` that signs requests with `token` and records them in `recorder`.
    static func makeClient(baseURL: URL, token: String, recorder: TrafficRecorder) -> APIClient {
        APIClient(baseURL: baseURL) {
            $0.defaultHeaders["Accept"] = "application/json"
            $0.interceptors = [SessionInterceptor(token: token)]
            $0.plugins = [recorder]
            $0.cache = ResponseCache(directory: nil)
            $0.timeouts.total = 10
        }
    }
}
