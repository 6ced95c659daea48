import EndpointKit

/// `GET /model`: the small model of scenarios 1, 2 and 6, as a user would declare it.
struct GetUserModel: APIRequest {
    typealias Response = UserModel
    var path: RequestPath { "/model" }
}

/// `GET /items`: the 20k-object page of scenario 3, decoded through the client's envelope.
struct GetItemPage: APIRequest {
    typealias Response = [Item]
    var path: RequestPath { "/items" }
}
