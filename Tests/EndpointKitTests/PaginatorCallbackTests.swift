import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// The paginator from closure and delegate code: the same paginator and loads as the async API.
extension PaginatorTests {
    typealias Outcome = APIResult<Page<Item>>?

    /// Calls `loadNextPage(completion:)` and waits (bounded) for its single completion.
    private func nextPage(_ paginator: Paginator<NumberedItems>) async -> [Outcome] {
        let done = expectation(description: "next page")
        let outcomes = Shared<[Outcome]>([])
        paginator.loadNextPage { outcome in
            outcomes.update { $0.append(outcome) }
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)
        return outcomes.value
    }

    /// A route of ten-item pages with the total, each answered after `delay` seconds.
    private func routeSlowPages(_ path: String, delay: TimeInterval) {
        let hits = hits
        server.route(path) { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            hits.increment("page \(page)")
            let body: [String: Any] = [
                "status": 200, "page": ["totalRows": Self.total],
                "result": Self.items(from: (page - 1) * 10, count: 10),
            ]
            return .delayed(delay, .json(body))
        }
    }

    func testThatClosuresPageOnTheMainActorAndShareTheAsyncState() async throws {
        let paginator = Paginator(client: client, request: NumberedItems())

        let first = expectation(description: "first page")
        let firstNumbers = Shared<[Int?]>([])
        paginator.loadFirstPage { result in
            MainActorProbe.check()
            firstNumbers.update { $0.append(result.value?.number) }
            first.fulfill()
        }
        await fulfillment(of: [first], timeout: 10)
        XCTAssertEqual(firstNumbers.value, [1])
        let second = await nextPage(paginator)
        XCTAssertEqual(second.map { $0?.value?.number }, [2])

        // The async API goes on from where the closures left the paginator, and back.
        let third = await paginator.loadNextPage()
        XCTAssertEqual(third?.value?.number, 3)
        let fourth = await nextPage(paginator)
        XCTAssertEqual(fourth.map { $0?.value?.items.first?.id }, [30])
        var snapshot = paginator.snapshot
        XCTAssertEqual(snapshot.items.map(\.id), Array(0..<40))
        XCTAssertEqual(snapshot.currentPage, 4)
        XCTAssertEqual(snapshot.maxPage, 10)
        XCTAssertEqual(snapshot.totalCount, 95)
        XCTAssertTrue(snapshot.hasMore)
        XCTAssertFalse(snapshot.isLoading)
        XCTAssertEqual(server.requestCount, 4)

        let refreshed = expectation(description: "refresh")
        paginator.refresh { result in
            XCTAssertEqual(result.value?.number, 1)
            refreshed.fulfill()
        }
        await fulfillment(of: [refreshed], timeout: 10)
        let current = paginator.snapshot.currentPage
        XCTAssertEqual(current, 1, "the async API sees the refresh")
        XCTAssertEqual(paginator.snapshot.items.count, 10)

        let again = expectation(description: "first page again")
        paginator.loadFirstPage { result in
            XCTAssertEqual(result.value?.number, 1)
            again.fulfill()
        }
        await fulfillment(of: [again], timeout: 10)
        XCTAssertEqual(server.requestCount, 5, "an already loaded first page is answered without a request")

        try await forEachPage(of: paginator) { _ in }
        let atTheEnd = await nextPage(paginator)
        XCTAssertEqual(atTheEnd.count, 1)
        XCTAssertNil(atTheEnd.first ?? nil, "nil at the end")
        snapshot = paginator.snapshot
        XCTAssertEqual(snapshot.items.map(\.id), Array(0..<Self.total))
        XCTAssertFalse(snapshot.hasMore)
        XCTAssertEqual(hits.value("page 2"), 2)
        XCTAssertEqual(hits.value("page 10"), 1)
    }

    func testThatAClosureCallAndAnAsyncCallRacingShareOneLoad() async {
        routeSlowPages("/slow-pages", delay: 0.2)
        let paginator = Paginator(client: client, request: NumberedItems(path: "/slow-pages"))

        // The closure call starts the load before it returns, so the async call joins it.
        let closureDone = expectation(description: "closure")
        let closureNumbers = Shared<[Int?]>([])
        paginator.loadNextPage { outcome in
            closureNumbers.update { $0.append(outcome?.value?.number) }
            closureDone.fulfill()
        }
        let asyncResult = await paginator.loadNextPage()
        await fulfillment(of: [closureDone], timeout: 10)
        XCTAssertEqual(asyncResult?.value?.number, 1)
        XCTAssertEqual(closureNumbers.value, [1])
        XCTAssertEqual(server.requestCount, 1)

        // The async call starts the load; a closure call made while it runs joins it.
        let asyncCall = Task { await paginator.loadNextPage() }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 5))
        let joined = await nextPage(paginator)
        let started = await asyncCall.value
        XCTAssertEqual(started?.value?.number, 2)
        XCTAssertEqual(joined.map { $0?.value?.number }, [2])
        XCTAssertEqual(server.requestCount, 2)

        // Many of both at once, from several threads: every page is asked for once.
        let closures = expectation(description: "closures")
        closures.expectedFulfillmentCount = 20
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { _ = await paginator.loadNextPage() } }
            DispatchQueue.concurrentPerform(iterations: 20) { _ in paginator.loadNextPage { _ in closures.fulfill() } }
        }
        await fulfillment(of: [closures], timeout: 10)
        let loaded = paginator.snapshot
        XCTAssertEqual(loaded.items.map(\.id), Array(0..<loaded.currentPage * 10), "pages in order, none twice")
        XCTAssertEqual(server.requestCount, loaded.currentPage)
        for page in 1...10 { XCTAssertLessThanOrEqual(hits.value("page \(page)"), 1, "page \(page)") }
    }

    @MainActor
    func testThatTheDelegateHearsEveryLoadOnceWhicheverFormStartedIt() async {
        routeSlowPages("/slow-pages", delay: 0.1)
        server.route("/one-short-page") { _ in .json(["status": 200, "result": Self.items(from: 0, count: 3)]) }
        // Closures, then the delegate, in the same turn of the main queue.
        let posts = Paginator(client: client, request: NumberedItems(path: "/slow-pages"))
        let short = Paginator(client: client, request: NumberedItems(path: "/one-short-page"))
        let controller = PagingController()
        controller.posts = posts
        posts.delegate = controller
        short.delegate = controller

        // A call without a closure (the delegate style), then one joining it: one load, one event.
        controller.expect(1, self)
        controller.appeared(posts)
        controller.scrolledToEnd(posts)
        await controller.wait()
        XCTAssertEqual(controller.events, ["posts: page 1"])
        XCTAssertEqual(server.requestCount, 1)

        // A load started by the async API, then by a closure (heard first).
        controller.expect(1, self)
        _ = await posts.loadNextPage()
        await controller.wait()
        controller.expect(1, self)
        posts.loadNextPage { _ in controller.events.append("closure") }
        await controller.wait()
        XCTAssertEqual(controller.events, ["posts: page 1", "posts: page 2", "closure", "posts: page 3"])

        // Nothing to load, asked without a closure: the delegate is answered all the same.
        controller.expect(1, self)
        controller.appeared(posts)
        await controller.wait()
        XCTAssertEqual(controller.events.last, "posts: page 1")
        controller.expect(1, self)
        controller.scrolledToEnd(short)
        await controller.wait()
        controller.expect(1, self)
        controller.scrolledToEnd(short)
        await controller.wait()
        XCTAssertEqual(controller.events.suffix(3), ["posts: page 1", "other: page 1", "other: end"])

        // Failures, and a cancelled load.
        server.route("/slow-pages") { request in request.queryValue("page") == "4" ? .status(503) : .stall }
        controller.expect(1, self)
        controller.scrolledToEnd(posts)
        await controller.wait()
        controller.expect(1, self)
        controller.pulledToRefresh(posts)
        XCTAssertTrue(server.waitForRequestCount(atLeast: 6, timeout: 5))
        await posts.cancel()
        await controller.wait()
        XCTAssertEqual(controller.events.suffix(2), ["posts: failed 503", "posts: cancelled"])
        XCTAssertEqual(server.requestCount, 6)
        XCTAssertEqual(posts.snapshot.currentPage, 3, "a failed or cancelled load changes nothing")

        // Held weakly.
        weak var released: PagingController?
        do {
            let temporary = PagingController()
            released = temporary
            posts.delegate = temporary
        }
        XCTAssertNil(released)
        XCTAssertNil(posts.delegate)
    }
}

/// A controller paging from delegate callbacks, telling its paginators apart with `===`.
@MainActor
final class PagingController: PaginatorDelegate {
    var events: [String] = []
    var posts: Paginator<NumberedItems>?
    private var expected: XCTestExpectation?
    private weak var testCase: XCTestCase?

    /// Expects `count` more delegate events (closures do not count).
    func expect(_ count: Int, _ testCase: XCTestCase) {
        let expectation = testCase.expectation(description: "\(count) delegate events")
        expectation.expectedFulfillmentCount = count
        expected = expectation
        self.testCase = testCase
    }

    func wait() async {
        guard let expected, let testCase else { return }
        await testCase.fulfillment(of: [expected], timeout: 10)
    }

    // Delegate-style calls, from synchronous code as a view controller makes them.
    func appeared(_ paginator: Paginator<NumberedItems>) { paginator.loadFirstPage() }
    func scrolledToEnd(_ paginator: Paginator<NumberedItems>) { paginator.loadNextPage() }
    func pulledToRefresh(_ paginator: Paginator<NumberedItems>) { paginator.refresh() }

    private func record<Request: PagedRequest>(_ paginator: Paginator<Request>, _ event: String) {
        events.append("\(paginator === posts ? "posts" : "other"): \(event)")
        expected?.fulfill()
    }

    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didLoad page: Page<Request.Element>) {
        record(paginator, "page \(page.number)")
    }

    func paginator<Request: PagedRequest>(_ paginator: Paginator<Request>, didFailWith failure: APIFailure) {
        if case .transport(let error) = failure, error.reason == .cancelled { return record(paginator, "cancelled") }
        record(paginator, "failed \(failure.statusCode ?? 0)")
    }

    // Written as the guide writes it: the constraint is inferred from `Paginator<Request>`.
    func paginatorDidReachEnd<Request>(_ paginator: Paginator<Request>) { record(paginator, "end") }
}
