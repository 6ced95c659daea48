import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

// Recipe 2 (subclass-style endpoint, XCTest): its contract, its answers through `start(with:)`,
// and a replay of what the backend really answered.
final class ProfileRequestTests: XCTestCase {
    private let base = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")
    private let stubs = StubTransport(answersFromSamples: true)

    func testThatTheProfileRequestSendsTheToken() {
        let contract = EndpointContract(
            method: .get, url: "https://api.example.com/me",
            headers: ["Authorization": "Bearer t0k3n", "Accept": "application/json"], body: .empty)
        assertEndpoint(ProfileRequest(token: "t0k3n"), matches: contract, baseURL: base)
    }

    @MainActor
    func testThatStartingTheRequestDeliversTheProfile() async {
        // Given
        let client = APIClient(configuration: .init(baseURL: base, transport: stubs))
        let request = ProfileRequest(token: "t0k3n")
        let done = expectation(description: "profile")
        // When
        request.start(with: client) { result in
            // Then
            XCTAssertEqual(result.value?.name, "Ada Lovelace")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
    }

    func testThatAnExpiredTokenIsAServerFailureAndARetrySucceeds() async {
        stubs.stub(
            .request(ProfileRequest.self), sequence: [.json(#"{"error":"token expired"}"#, status: 401), .sample])
        let client = APIClient(configuration: .init(baseURL: base, transport: stubs))
        let first = await client.send(ProfileRequest(token: "old"))
        let second = await client.send(ProfileRequest(token: "new"))
        guard case .serverFailure(let failure) = first else { return XCTFail("\(first)") }
        XCTAssertEqual(failure.statusCode, 401)
        XCTAssertEqual(second.value?.id, 7)
        XCTAssertEqual(stubs.endpoints(of: ProfileRequest.self).map(\.token), ["old", "new"])
    }

    func testThatTheRecordedProfileReplaysWithoutANetwork() async throws {
        let session = try SampleBackend.Session(fixtures: "ProfileRequestTests")
        defer { session.stop() }
        let client = APIClient(configuration: .init(baseURL: session.baseURL, transport: session.transport))

        let profile = try await client.value(for: ProfileRequest(token: "real-session-token"))

        XCTAssertEqual(profile, UserProfile(id: 7, name: "Ada Lovelace", email: "ada@example.com"))
    }
}
