import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Signs every request with the member's session token.
struct SessionInterceptor: RequestInterceptor {
    let token: String

    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }
}
