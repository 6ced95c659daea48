import EndpointKit

/// `GET /model`: the small model of scenarios 1, 2 and 6, as a user would declare it.
/// Coalescing is off: the baseline sends every request, so EndpointKit must too (identical GETs
/// in flight would otherwise share one transfer and the ratios would mean nothing).
struct GetUserModel: APIRequest {
    typealias Response = UserModel
    var path: RequestPath { "/model" }
    var coalescesIdenticalRequests: Bool? { false }
}

/// `GET /items`: the 20k-object page of scenario 3, decoded through the client's envelope.
struct GetItemPage: APIRequest {
    typealias Response = [Item]
    var path: RequestPath { "/items" }
}
