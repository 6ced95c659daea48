import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``RequestInterceptor`` made from a closure that adapts requests, for example to add a header
/// whose value can change while the app runs (a reloadable token). It has no opinion on retries.
///
/// ```swift
/// $0.interceptors = [Adapter { request, _ in
///     var request = request
///     request.setValue(TokenStore.shared.token, forHTTPHeaderField: "X-Token")
///     return request
/// }]
/// ```
public struct Adapter: RequestInterceptor {
    private let adaptation: @Sendable (URLRequest, RequestContext) async throws -> URLRequest

    /// Creates an adapter.
    public init(_ adaptation: @escaping @Sendable (URLRequest, RequestContext) async throws -> URLRequest) {
        self.adaptation = adaptation
    }

    /// Applies the closure.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        try await adaptation(request, context)
    }
}
