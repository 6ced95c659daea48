import EndpointKit
import EndpointKitTesting
import Foundation
import Testing

// Recipe 1 (struct-style endpoint, Swift Testing): check what the endpoint sends, then how its
// answers decode, from the samples declared next to it.
@Suite struct SearchArticlesTests {
    private let base = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")
    private let stubs = StubTransport(answersFromSamples: true)
    private var client: APIClient { APIClient(configuration: .init(baseURL: base, transport: stubs)) }

    @Test func theSearchSendsTermAndPageInTheQuery() {
        let contract = EndpointContract(
            method: .get, url: "https://api.example.com/articles/search?per_page=20&page=2&q=swift%20lang",
            body: .empty)
        expectEndpoint(SearchArticles(term: "swift lang", page: 2), matches: contract, baseURL: base)
    }

    @Test func theSampleAnswerDecodes() async throws {
        let articles = try await client.value(for: SearchArticles(term: "swift"))
        #expect(articles.map(\.title) == ["Swift on Linux", "Testing endpoints"])
        #expect(articles.map(\.likes) == [42, 7])
    }

    @Test func noResultIsAnEmptyList() async throws {
        stubs.stub(.request(SearchArticles.self), with: .sample("empty"))
        #expect(try await client.value(for: SearchArticles(term: "nothing")).isEmpty)
    }

    @Test func rateLimitingIsAServerFailureWithTheServersMessage() async throws {
        stubs.stub(.request(SearchArticles.self), with: .sample("rateLimited"))
        let result = await client.send(SearchArticles(term: "swift"))
        guard case .serverFailure(let failure) = result else {
            Issue.record("expected a server failure, got \(result)")
            return
        }
        #expect(failure.statusCode == 429)
        #expect(try failure.decodeBody(as: APIErrorBody.self).error == "slow down")
    }

    @Test func loadingTheNextPageAsksForPageTwo() async {
        _ = await client.send(SearchArticles(term: "swift"))
        _ = await client.send(SearchArticles(term: "swift", page: 2))
        #expect(stubs.endpoints(of: SearchArticles.self).map(\.page) == [1, 2])
        #expect(stubs.recordedRequests.map { $0.queryValue("page") } == ["1", "2"])
    }
}
