// The complete example of Docs/Migration/FromServiceLayer.md (and its Chinese twin), copied verbatim below its
// imports (keep them in sync: when the guide's example changes, copy it here), then run against
// the loopback server.

import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

nonisolated struct Article: Decodable, Sendable {
    let id: Int
    let title: String
}

struct ArticleList: APIRequest {
    typealias Response = [Article]
    let channel: String
    let page: Int
    var path: RequestPath { "/channels/\(channel)/articles" }
    var parameters: RequestParameters { .query(["page": QueryValue(page), "rows": 20]) }
}

struct LikeArticle: APIRequest {
    typealias Response = Empty
    let id: Int
    var method: HTTPMethod { .put }
    var path: RequestPath { "/articles/\(id)/like" }
}

struct DeleteArticle: APIRequest {
    typealias Response = Empty
    let id: Int
    var method: HTTPMethod { .delete }
    var path: RequestPath { "/articles/\(id)" }
}

/// What the old error block received, in one value.
struct ServiceError: Error {
    let errCode: String?
    let errMsg: String
    let status: Int?
    let isTimeout: Bool
}

/// The feature's service: async methods instead of three blocks each.
struct ArticleService {
    let client: APIClient

    init(baseURL: URL? = URL(string: "https://news.example.com")) {
        client = APIClient(baseURL: baseURL) {
            $0.envelope = .statusResult()  // status 200 is success; errCode, errMsg, page
        }
    }

    /// The articles of one page, and whether more follow.
    func articles(in channel: String, page: Int) async throws(ServiceError) -> (items: [Article], hasMore: Bool) {
        switch await client.send(ArticleList(channel: channel, page: page)) {
        case .success(let articles, let metadata):
            let info = metadata.envelope?.page  // {"totalRows":95,"hasMore":true}
            return (articles, info?.hasMore ?? (articles.count == 20))
        case .serverFailure(let failure):  // the old blockError
            throw ServiceError(
                errCode: failure.code?.description, errMsg: failure.message ?? "Server error",
                status: failure.statusCode, isTimeout: false)
        case .transportError(let error):  // blockTimeOut, and the rest
            throw ServiceError(errCode: nil, errMsg: error.message, status: nil, isTimeout: error.reason == .timedOut)
        }
    }

    func like(_ id: Int) async -> Bool { await client.send(LikeArticle(id: id)).isSuccess }
    func delete(_ id: Int) async -> Bool { await client.send(DeleteArticle(id: id)).isSuccess }
}

// MARK: - Tests

final class FromServiceLayerMigrationTests: LoopbackTestCase {
    func testThatTheServiceReadsTheEnvelopeAndSendsEachVerb() async throws {
        // GIVEN a backend that wraps every answer
        let inbox = Inbox()
        server.route("/channels/tech/articles") { request in
            inbox.record(request)
            if request.queryValue("page") == "9" {
                return .json(string: #"{"status":400,"errCode":"E_PAGE","errMsg":"No such page","result":null}"#)
            }
            return .json(
                string:
                    #"{"status":200,"errCode":null,"errMsg":null,"page":{"totalRows":95,"hasMore":true},"result":[{"id":1,"title":"Swift 6"}]}"#
            )
        }
        server.route("/articles/1/like") { request in
            inbox.record(request)
            return .json(string: #"{"status":200,"result":null}"#)
        }
        server.route("/articles/1") { request in
            inbox.record(request)
            return .json(string: #"{"status":200,"result":null}"#)
        }
        let service = ArticleService(baseURL: server.baseURL)

        // WHEN a page, a refused page, a like and a delete are sent
        let page = try await service.articles(in: "tech", page: 1)
        var refusal: ServiceError?
        do {
            _ = try await service.articles(in: "tech", page: 9)
        } catch {
            refusal = error
        }
        let liked = await service.like(1)
        let deleted = await service.delete(1)

        // THEN the envelope gave the items, the page info and the failure; each verb went out
        XCTAssertEqual(page.items.map(\.title), ["Swift 6"])
        XCTAssertTrue(page.hasMore)
        XCTAssertEqual(refusal?.errCode, "E_PAGE")
        XCTAssertEqual(refusal?.errMsg, "No such page")
        XCTAssertEqual(refusal?.status, 200, "the HTTP status")
        XCTAssertEqual(refusal?.isTimeout, false)
        XCTAssertTrue(liked)
        XCTAssertTrue(deleted)
        XCTAssertEqual(inbox.requests.map(\.method), ["GET", "GET", "PUT", "DELETE"])
        XCTAssertEqual(inbox.requests.first?.queryValue("rows"), "20")
    }
}
