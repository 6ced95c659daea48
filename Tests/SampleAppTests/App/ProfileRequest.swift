import EndpointKit
import EndpointKitTesting

/// Subclass style: the signed-in user's profile, sent with the session token.
final class ProfileRequest: BaseRequest<UserProfile> {
    let token: String
    nonisolated init(token: String) { self.token = token }
    override var path: RequestPath { "/me" }
    override var headers: HTTPHeaders { ["Authorization": "Bearer \(token)", "Accept": "application/json"] }
}

// A subclass declares its samples `nonisolated`, like its endpoint members.
extension ProfileRequest: SampleResponseProviding {
    nonisolated var sampleResponse: StubResponse {
        .json(#"{"id":7,"name":"Ada Lovelace","email":"ada@example.com"}"#)
    }
}
