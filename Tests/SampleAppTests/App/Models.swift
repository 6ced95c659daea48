import EndpointKit
import Foundation

// The sample app's models. In a real app these, and the endpoints next to them, live in the app
// target; here they sit in the test target so the package needs no app product.

struct Article: Codable, Sendable, Equatable {
    let id: Int
    let title: String
    @Lenient var likes: Int
}

struct UserProfile: Codable, Sendable, Equatable {
    let id: Int
    let name: String
    let email: String
}

/// The app's API error body, `{"error":"..."}`.
struct APIErrorBody: Decodable, Sendable {
    let error: String
}
