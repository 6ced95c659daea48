import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

// The example of Docs/GettingStarted.md, compiled and run so the guide cannot rot.

private struct Repo: Decodable, Sendable {
    let id: Int
    let fullName: String
    @Lenient var stars: Int

    enum CodingKeys: String, CodingKey {
        case id, stars
        case fullName = "full_name"
    }
}

private struct SearchRepos: APIRequest {
    typealias Response = [Repo]
    let query: String
    var path: RequestPath { "/search" }
    var parameters: RequestParameters { .query(["q": .string(query), "page": 1]) }
}

final class GettingStartedExampleTests: XCTestCase {
    func testThatSearchBuildsTheQuery() throws {
        let client = APIClient(
            configuration: .init(baseURL: URL(string: "https://api.test"), transport: StubTransport()))
        let request = try client.urlRequest(for: SearchRepos(query: "swift lang"))
        XCTAssertEqual(request.url?.absoluteString, "https://api.test/search?q=swift%20lang&page=1")
    }

    func testThatSearchDecodesAStubbedAnswer() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, "/search", json: #"[{"id":1,"full_name":"apple/swift","stars":"60000"}]"#)
        let client = APIClient(configuration: .init(baseURL: URL(string: "https://api.test"), transport: stubs))
        let repos = try await client.value(for: SearchRepos(query: "swift"))
        XCTAssertEqual(repos.first?.stars, 60000)
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }

    func testThatUnmatchedStubsNameTheRequestAndTheStubs() async {
        let stubs = StubTransport()
        stubs.stub(.post, "/other", json: "{}")
        let client = APIClient(configuration: .init(baseURL: URL(string: "https://api.test"), transport: stubs))
        let result = await client.send(SearchRepos(query: "x"))
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(error.message.contains("GET https://api.test/search"), error.message)
        XCTAssertTrue(error.message.contains("POST /other"), error.message)
    }
}
