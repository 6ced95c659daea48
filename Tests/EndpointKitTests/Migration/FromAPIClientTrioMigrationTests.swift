// The complete example of Docs/Migration/FromAPIClientTrio.md (and its Chinese twin), copied verbatim below its
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

nonisolated struct Donor: Decodable, Sendable {
    let id: Int
    let name: String
}

/// `"Result": {"Datas": [...], "TotalNum": 102}`
nonisolated struct DonorPage: Decodable, Sendable {
    let donors: [Donor]
    let totalNum: Int
    enum CodingKeys: String, CodingKey {
        case donors = "Datas"
        case totalNum = "TotalNum"
    }
}

/// The list endpoint: a page of donors, and the total the paginator stops at.
struct DonorList: PagedRequest {
    typealias Response = DonorPage
    var page: PagePosition = .number(1, size: 20)
    var path: RequestPath { "/donors/list" }  // your urlAction
    var parameters: RequestParameters { .query(page.queryItems(number: "PageIndex", size: "PageSize")) }
    func elements(in response: DonorPage) -> [Donor] { response.donors }
    func pageInfo(in response: DonorPage) -> PageInfo? { PageInfo(totalCount: response.totalNum) }
}

/// The detail endpoint, sent by a controller that is its delegate.
struct DonorDetail: APIRequest {
    typealias Response = Donor
    let id: Int
    var path: RequestPath { "/donors/detail" }
    var parameters: RequestParameters { ["id": QueryValue(id)] }
}

enum API {
    static let client = makeClient(serviceURL: URL(string: "https://service.example.com/api"))

    static func makeClient(serviceURL: URL?) -> APIClient {
        APIClient(baseURL: serviceURL) {
            $0.envelope = .errorIDResult()  // {"Error":{"ID":0,...},"Result":...}
            $0.commonParameters = ["AppVersion": "5.1", "Platform": "ios"]  // appendBaseParams
        }
    }
}

@MainActor final class DonorController: APIRequestDelegate {
    let client: APIClient
    let donors: Paginator<DonorList>
    /// What the screen shows.
    private(set) var detail: Donor?
    private(set) var errorText: String?

    init(client: APIClient = API.client) {
        self.client = client
        donors = Paginator(client: client, request: DonorList())
    }

    func showDetail(of id: Int) {
        client.send(DonorDetail(id: id), delegate: self)
    }

    func loadMore() async {
        _ = await donors.loadNextPage()
        let state = donors.snapshot
        print("page", state.currentPage, "of", state.maxPage.map(String.init) ?? "?", "- more:", state.hasMore)
    }

    // The three delegate methods; each receives the request it is about.
    func request<R: APIRequest>(_ request: R, didSucceedWith value: R.Response, metadata: ResponseMetadata) {
        if let donor = value as? Donor { detail = donor }
    }
    func request<R: APIRequest>(_ request: R, didFailOnServer failure: ServerFailure) {
        errorText = "Error.ID \(failure.code?.description ?? "-"): \(failure.message ?? "")"  // 17, "Session expired"
    }
    func request<R: APIRequest>(_ request: R, didFailInTransport error: TransportError) {
        errorText = "network: \(error.message)"
    }
}

// MARK: - Tests

final class FromAPIClientTrioMigrationTests: LoopbackTestCase {
    @MainActor func testThatTheControllerPagesAndHearsEachOutcomeThroughItsDelegate() async throws {
        // GIVEN a service answering in the {"Error":{"ID":..},"Result":..} envelope
        let inbox = Inbox()
        server.route("/api/donors/list") { request in
            inbox.record(request)
            return .json(
                string:
                    #"{"Error":{"ID":0,"Message":null},"Result":{"Datas":[{"id":1,"name":"Ada"},{"id":2,"name":"Bo"}],"TotalNum":2}}"#
            )
        }
        server.route("/api/donors/detail") { request in
            inbox.record(request)
            if request.queryValue("id") == "4" {
                return .json(string: #"{"Error":{"ID":17,"Message":"Session expired"},"Result":null}"#)
            }
            return .json(string: #"{"Error":{"ID":0,"Message":null},"Result":{"id":3,"name":"Cy"}}"#)
        }
        let controller = DonorController(client: API.makeClient(serviceURL: server.url("/api")))

        // WHEN it loads a page, a detail, and a detail the server refuses
        await controller.loadMore()
        controller.showDetail(of: 3)
        let detailed = await eventually { controller.detail != nil }
        controller.showDetail(of: 4)
        let refused = await eventually { controller.errorText != nil }

        // THEN the paginator, the success and the Error.ID failure all arrived, with the base params
        XCTAssertTrue(detailed)
        XCTAssertTrue(refused)
        let state = controller.donors.snapshot
        let items = state.items.map(\.name)
        let (page, hasMore, total) = (state.currentPage, state.hasMore, state.totalCount)
        XCTAssertEqual(items, ["Ada", "Bo"])
        XCTAssertEqual(page, 1)
        XCTAssertEqual(total, 2)
        XCTAssertFalse(hasMore)
        XCTAssertEqual(controller.detail?.name, "Cy")
        XCTAssertEqual(controller.errorText, "Error.ID 17: Session expired")
        let list = try XCTUnwrap(inbox.requests.first)
        XCTAssertEqual(list.queryValue("PageIndex"), "1")
        XCTAssertEqual(list.queryValue("PageSize"), "20")
        XCTAssertEqual(inbox.requests.map { $0.queryValue("AppVersion") }, ["5.1", "5.1", "5.1"])
    }
}
