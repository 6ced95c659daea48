import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// Page-number, offset and cursor pagination over a server of 95 items.
final class PaginatorTests: LoopbackTestCase {
    static let total = 95

    /// Requests per page (by the page's first item), counted server-side.
    let hits = Counter()

    /// Items `start..<start+count` of the 95, as JSON.
    static func items(from start: Int, count: Int) -> [[String: Any]] {
        (max(0, start)..<min(total, max(0, start) + max(0, count))).map { ["id": $0, "name": "item \($0)"] }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let hits = hits
        // Seed 002's shape: {"status":200,"page":{"totalRows":95,"hasMore":true},"result":[...]}
        server.route("/numbered") { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            let size = Int(request.queryValue("pageSize") ?? "") ?? 0
            hits.increment("page \(page)")
            let start = (page - 1) * size
            return .json([
                "status": 200, "page": ["totalRows": Self.total, "hasMore": start + size < Self.total],
                "result": Self.items(from: start, count: size),
            ])
        }
        server.route("/offset") { request in
            let offset = Int(request.queryValue("offset") ?? "") ?? 0
            hits.increment("offset \(offset)")
            return .json(Self.items(from: offset, count: Int(request.queryValue("limit") ?? "") ?? 0))
        }
        server.route("/cursor") { request in
            let start = Int(request.queryValue("cursor").map { String($0.dropFirst()) } ?? "0") ?? 0
            hits.increment("cursor \(start)")
            let limit = Int(request.queryValue("limit") ?? "") ?? 0
            var body: [String: Any] = ["items": Self.items(from: start, count: limit)]
            if start + limit < Self.total { body["next"] = "c\(start + limit)" }
            return .json(body)
        }
    }

    private var everyID: [Int] { Array(0..<Self.total) }

    /// A page-number route without paging information whose page `special` answers `firstAnswer`
    /// the first time it is asked, and its items after that.
    private func routeNumbered(_ path: String, page special: Int, firstAnswer: TestResponse) {
        let asked = Counter()
        server.route(path) { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            if page == special {
                asked.increment()
                if asked.value() == 1 { return firstAnswer }
            }
            return .json(["status": 200, "result": Self.items(from: (page - 1) * 10, count: 10)])
        }
    }

    func testThatPageNumbersLoadEveryItemOnceInOrderAndStopAtTheEnd() async throws {
        let paginator = Paginator(client: client, request: NumberedItems())
        var numbers: [Int] = []
        try await forEachPage(of: paginator) { page in numbers.append(page.number) }
        XCTAssertEqual(numbers, Array(1...10))
        let items = paginator.snapshot.items
        XCTAssertEqual(items.map(\.id), everyID)
        let snapshot = paginator.snapshot
        let (current, maxPage, total, hasMore) = (
            snapshot.currentPage, snapshot.maxPage, snapshot.totalCount, snapshot.hasMore
        )
        XCTAssertEqual(current, 10)
        XCTAssertEqual(maxPage, 10)
        XCTAssertEqual(total, 95)
        XCTAssertFalse(hasMore)
        let afterTheEnd = await paginator.loadNextPage()
        XCTAssertNil(afterTheEnd)
        XCTAssertEqual(server.requestCount, 10)
        XCTAssertEqual(hits.value("page 1"), 1)
        XCTAssertEqual(hits.value("page 10"), 1)
    }

    func testThatOffsetsLoadEveryItemOnceAndAShortPageIsTheEnd() async throws {
        let paginator = Paginator(client: client, request: OffsetItems())
        while let result = await paginator.loadNextPage() { _ = try result.get() }
        let items = paginator.snapshot.items
        XCTAssertEqual(items.map(\.id), everyID)
        let (total, maxPage) = (paginator.snapshot.totalCount, paginator.snapshot.maxPage)
        XCTAssertEqual(total, 95, "known once the end is reached")
        XCTAssertEqual(maxPage, 10)
        XCTAssertEqual(server.requestCount, 10)
        XCTAssertEqual(hits.value("offset 90"), 1)
    }

    func testThatCursorsFromThePageContentLoadEveryItemOnce() async throws {
        let paginator = Paginator(client: client, request: CursorItems())
        var sizes: [Int] = []
        try await forEachPage(of: paginator) { page in sizes.append(page.items.count) }
        XCTAssertEqual(sizes, Array(repeating: 10, count: 9) + [5])
        let items = paginator.snapshot.items
        XCTAssertEqual(items.map(\.id), everyID)
        XCTAssertEqual(server.requestCount, 10)
        let hasMore = paginator.snapshot.hasMore
        XCTAssertFalse(hasMore)
    }

    func testThatConcurrentNextPageCallsNeverLoadAPageTwice() async throws {
        let hits = hits
        server.route("/slow-numbered") { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            hits.increment("page \(page)")
            let start = (page - 1) * 10
            let body: [String: Any] = [
                "status": 200, "page": ["totalRows": Self.total], "result": Self.items(from: start, count: 10),
            ]
            return .delayed(0.05, .json(body))
        }
        let paginator = Paginator(client: client, request: NumberedItems(path: "/slow-numbered"))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<30 { group.addTask { _ = await paginator.loadNextPage() } }
        }
        let loaded = paginator.snapshot
        XCTAssertEqual(loaded.items.map(\.id), Array(0..<loaded.currentPage * 10), "pages in order, none twice")
        XCTAssertEqual(server.requestCount, loaded.currentPage)
        for page in 1...10 { XCTAssertLessThanOrEqual(hits.value("page \(page)"), 1, "page \(page)") }

        try await forEachPage(of: paginator) { _ in }
        let items = paginator.snapshot.items
        XCTAssertEqual(items.map(\.id), everyID)
        for page in 1...10 { XCTAssertEqual(hits.value("page \(page)"), 1, "page \(page)") }
    }

    func testThatTheFirstPageIsLoadedOnce() async {
        let paginator = Paginator(client: client, request: NumberedItems())
        async let first = paginator.loadFirstPage()
        async let second = paginator.loadFirstPage()
        let (a, b) = await (first, second)
        let third = await paginator.loadFirstPage()
        XCTAssertEqual([a, b, third].map { $0.value?.number }, [1, 1, 1])
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatRefreshReplacesThePagesOnlyOnSuccess() async {
        let paginator = Paginator(client: client, request: NumberedItems())
        for _ in 0..<3 { _ = await paginator.loadNextPage() }
        let refreshed = await paginator.refresh()
        XCTAssertEqual(refreshed.value?.number, 1)
        var (current, count) = (paginator.snapshot.currentPage, paginator.snapshot.items.count)
        XCTAssertEqual(current, 1)
        XCTAssertEqual(count, 10)
        XCTAssertEqual(hits.value("page 1"), 2)

        _ = await paginator.loadNextPage()
        server.route("/numbered") { _ in .status(503) }
        let failed = await paginator.refresh()
        XCTAssertEqual(failed.serverFailure?.statusCode, 503)
        (current, count) = (paginator.snapshot.currentPage, paginator.snapshot.items.count)
        XCTAssertEqual(current, 2, "a failed refresh keeps what was loaded")
        XCTAssertEqual(count, 20)
    }

    func testThatRefreshCancelsANextPageInFlight() async {
        routeNumbered("/stall-page-2", page: 2, firstAnswer: .stall)
        let paginator = Paginator(client: client, request: NumberedItems(path: "/stall-page-2"))
        _ = await paginator.loadFirstPage()
        let next = Task { await paginator.loadNextPage() }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 5))
        let refreshed = await paginator.refresh()
        XCTAssertEqual(refreshed.value?.number, 1)
        let cancelled = await next.value
        XCTAssertEqual(cancelled?.transportReason, .cancelled)
        let page2 = await paginator.loadNextPage()
        XCTAssertEqual(page2?.value?.items.first?.id, 10)
        let ids = paginator.snapshot.items.map(\.id)
        XCTAssertEqual(ids, Array(0..<20))
    }

    func testThatAFailedPageCanBeLoadedAgainAndFailsTheSequence() async {
        routeNumbered("/flaky", page: 3, firstAnswer: .status(500))
        let paginator = Paginator(client: client, request: NumberedItems(path: "/flaky"))
        var seen = 0
        do {
            try await forEachPage(of: paginator) { _ in seen += 1 }
            XCTFail("the sequence should throw")
        } catch {
            XCTAssertEqual((error as? APIFailure)?.serverFailure?.statusCode, 500)
        }
        XCTAssertEqual(seen, 2)
        let hasMore = paginator.snapshot.hasMore
        XCTAssertTrue(hasMore)
        let retried = await paginator.loadNextPage()
        XCTAssertEqual(retried?.value?.number, 3)
    }

    func testThatCancellingTheIterationCancelsThePageInFlight() async {
        server.route("/stall-after-one") { request in
            request.queryValue("page") == "1"
                ? .json(["status": 200, "result": Self.items(from: 0, count: 10)]) : .stall
        }
        let paginator = Paginator(client: client, request: NumberedItems(path: "/stall-after-one"))
        let iteration = Task {
            var count = 0
            try await forEachPage(of: paginator) { _ in count += 1 }
            return count
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 5))
        iteration.cancel()
        let outcome = await iteration.result
        guard case .failure(let error) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual((error as? APIFailure)?.transportError?.reason, .cancelled)
        let (current, loading) = (paginator.snapshot.currentPage, paginator.snapshot.isLoading)
        XCTAssertEqual(current, 1)
        XCTAssertFalse(loading)
    }

    // MARK: - Servers that would make a naive paginator loop

    func testThatARepeatedCursorStops() async throws {
        server.route("/same-cursor") { request in
            .json(["items": [["id": request.queryValue("cursor") == nil ? 1 : 2, "name": "x"]], "next": "same"])
        }
        let paginator = Paginator(client: client, request: CursorItems(path: "/same-cursor"))
        try await forEachPage(of: paginator) { _ in }
        let ids = paginator.snapshot.items.map(\.id)
        XCTAssertEqual(ids, [1, 2])
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatAPageBeyondTheEndIsDroppedAndStops() async throws {
        // Always "hasMore", and any page past 3 answered with page 3 again.
        server.route("/clamped") { request in
            let page = min(3, Int(request.queryValue("page") ?? "") ?? 1)
            return .json([
                "status": 200, "page": ["page": page, "hasMore": true],
                "result": Self.items(from: (page - 1) * 10, count: 10),
            ])
        }
        let paginator = Paginator(client: client, request: NumberedItems(path: "/clamped"))
        try await forEachPage(of: paginator) { _ in }
        let (ids, hasMore) = (paginator.snapshot.items.map(\.id), paginator.snapshot.hasMore)
        XCTAssertEqual(ids, Array(0..<30))
        XCTAssertFalse(hasMore)
        XCTAssertEqual(server.requestCount, 4)
        let none = await paginator.loadNextPage()
        XCTAssertNil(none)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testThatAnEmptyPageStopsEvenIfTheServerSaysThereIsMore() async throws {
        server.route("/endless") { request in
            let page = Int(request.queryValue("page") ?? "") ?? 1
            let items = page <= 2 ? Self.items(from: (page - 1) * 10, count: 10) : []
            return .json(["status": 200, "page": ["hasMore": true], "result": items])
        }
        let paginator = Paginator(client: client, request: NumberedItems(path: "/endless"))
        try await forEachPage(of: paginator) { _ in }
        let count = paginator.snapshot.items.count
        XCTAssertEqual(count, 20)
        XCTAssertEqual(server.requestCount, 3)
    }

    // MARK: - Positions as query parameters

    func testThatPositionsBecomeQueryParameters() throws {
        XCTAssertEqual(try client.urlRequest(for: NumberedItems()).url?.query, "page=1&pageSize=10")
        XCTAssertEqual(try client.urlRequest(for: OffsetItems()).url?.query, "offset=0&limit=10")
        XCTAssertEqual(try client.urlRequest(for: CursorItems()).url?.query, "limit=10")
        var next = CursorItems()
        next.page = .cursor("c 20", limit: 5)
        XCTAssertEqual(try client.urlRequest(for: next).url?.query, "limit=5&cursor=c%2020")
        let custom = PagePosition.number(2, size: 50).queryItems(number: "pageNo", size: "rows")
        XCTAssertEqual(custom, ["pageNo": 2, "rows": 50])
    }
}

// MARK: - Paged endpoints

struct NumberedItems: PagedRequest {
    typealias Response = [Item]
    var page: PagePosition = .number(1, size: 10)
    var path: RequestPath = "/numbered"
    var envelope: (any ResponseEnvelope)? { KeyPathEnvelope.statusResult() }
}

struct OffsetItems: PagedRequest {
    typealias Response = [Item]
    var page: PagePosition = .offset(0, limit: 10)
    var path: RequestPath { "/offset" }
}

struct CursorFeed: Decodable, Sendable {
    let items: [Item]
    let next: String?
}

struct CursorItems: PagedRequest {
    typealias Response = CursorFeed
    var page: PagePosition = .cursor(nil, limit: 10)
    var path: RequestPath = "/cursor"

    func elements(in response: CursorFeed) -> [Item] { response.items }
    func pageInfo(in response: CursorFeed) -> PageInfo? { PageInfo(nextCursor: response.next) }
}

/// Loads every page in order with `loadNextPage()` until the end, calling `body` with each: a
/// failed load throws its failure, a cancelled Task cancels the load it waits for.
func forEachPage<Request: PagedRequest>(
    of paginator: Paginator<Request>, _ body: (Page<Request.Element>) -> Void
) async throws {
    while let result = await paginator.loadNextPage() {
        body(try result.get())
    }
}
