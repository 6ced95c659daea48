import EndpointKit
import Foundation

/// The endpoint every soak request is: a path on the test server, decoded as a ``UserModel``,
/// with the timeout, envelope and retry policy its ``SoakKind`` needs.
struct SoakRequest: APIRequest {
    typealias Response = UserModel

    /// The path, already percent-encoded.
    let route: String
    /// Query items: the request's index (so that requests do not share a transfer) and the
    /// server's delay where there is one.
    let query: QueryItems
    /// Whether identical requests in flight share one transfer.
    let shares: Bool
    /// The request's total deadline, when its kind plans a timeout.
    let totalTimeout: TimeInterval?
    let envelope: (any ResponseEnvelope)?
    let retryPolicy: RetryPolicy?

    var path: RequestPath { RequestPath(percentEncoded: route) }
    var parameters: RequestParameters { .query(query) }
    var coalescesIdenticalRequests: Bool? { shares }
    var tag: String? { "soak" }
}
