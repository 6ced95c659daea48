import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

@testable import PlainApp

/// What issue 25 found when migrating a YTKNetwork demo: a `BaseRequest` subclass's stored
/// property could not be read outside the main actor ("main actor-isolated property 'userId' can
/// not be referenced from a nonisolated context"). This test is nonisolated throughout: a stub
/// matcher, a key path and a helper function read `articleID`.
final class ArticleRequestTests: XCTestCase {
    func testThatTheArticleIDIsReadOffTheMainActor() async {
        let stubs = StubTransport()
        stubs.stub(.request(ArticleRequest.self), with: .status(404))
        stubs.stub(
            .request(ArticleRequest.self, where: { $0.articleID == 7 }), with: .json(#"{"id":7,"title":"Seven"}"#))
        let client = APIClient(configuration: .init(baseURL: URL(string: "https://news.example"), transport: stubs))

        let seven = await client.send(ArticleRequest(articleID: 7))
        let eight = await client.send(ArticleRequest(articleID: 8))

        XCTAssertEqual(seven.value, Article(id: 7, title: "Seven"))
        XCTAssertEqual(eight.failure?.statusCode, 404)
        XCTAssertEqual(stubs.endpoints(of: ArticleRequest.self).map(\.articleID), [7, 8])
        XCTAssertEqual(stubs.endpoints(of: ArticleRequest.self).map(logLine), ["article 7", "article 8"])
    }
}

/// A nonisolated helper, as a logger or an analytics call would be.
private func logLine(for request: ArticleRequest) -> String {
    "article \(request.articleID)"
}
