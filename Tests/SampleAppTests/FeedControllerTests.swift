import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

// Recipe 3 (a delegate-driven controller, XCTest): stub the answers, drive the controller, and
// assert on what it would show. Delegates run on the main actor, so the tests do too.
final class FeedControllerTests: XCTestCase {
    private let stubs = StubTransport()

    @MainActor
    private func makeController(transport: (any Transport)? = nil, baseURL: URL? = nil) -> FeedController {
        let base = baseURL ?? URL(string: "https://api.example.com")
        return FeedController(client: APIClient(configuration: .init(baseURL: base, transport: transport ?? stubs)))
    }

    /// Refreshes and waits (bounded) for the first state after `.loading` that is not `.loading`.
    @MainActor
    private func refresh(_ controller: FeedController) async -> [FeedController.State] {
        var states: [FeedController.State] = []
        let settled = expectation(description: "settled")
        controller.onChange = { state in
            states.append(state)
            if state != .loading { settled.fulfill() }
        }
        controller.refresh()
        await fulfillment(of: [settled], timeout: 5)
        return states
    }

    @MainActor
    func testThatRefreshShowsLoadingThenTheArticles() async {
        stubs.stub(.request(FeedRequest.self), with: .json(#"[{"id":1,"title":"Hello","likes":2}]"#))
        let states = await refresh(makeController())
        XCTAssertEqual(states, [.loading, .loaded([Article(id: 1, title: "Hello", likes: 2)])])
    }

    @MainActor
    func testThatAServerFailureShowsTheServersMessage() async {
        stubs.stub(.request(FeedRequest.self), with: .json(#"{"error":"maintenance until noon"}"#, status: 503))
        let states = await refresh(makeController())
        XCTAssertEqual(states.last, .failed("maintenance until noon"))
    }

    @MainActor
    func testThatBeingOfflineSaysSo() async {
        stubs.stub(.request(FeedRequest.self), with: .failure(.notConnected))
        let states = await refresh(makeController())
        XCTAssertEqual(states.last, .failed("You are offline."))
    }

    @MainActor
    func testThatARefreshReplacesTheLoadStillRunning() async {
        stubs.stub(
            .request(FeedRequest.self),
            sequence: [.delayed(30, .json("[]")), .json(#"[{"id":2,"title":"New","likes":0}]"#)])
        let controller = makeController()
        controller.refresh()
        // The first load is replaced once it is running (its request reached the transport): one
        // cancelled before that sends nothing, and the next load would get the first answer.
        let deadline = Date(timeIntervalSinceNow: 5)
        while stubs.recordedRequests.isEmpty, Date() < deadline { try? await Task.sleep(nanoseconds: 1_000_000) }
        let states = await refresh(controller)
        XCTAssertEqual(states, [.loading, .loaded([Article(id: 2, title: "New", likes: 0)])])
        XCTAssertEqual(stubs.recordedRequests.count, 2)
    }

    @MainActor
    func testThatTheRecordedFeedReplaysWithoutANetwork() async throws {
        let session = try SampleBackend.Session(fixtures: "FeedControllerTests")
        defer { session.stop() }
        let controller = makeController(transport: session.transport, baseURL: session.baseURL)

        let states = await refresh(controller)

        XCTAssertEqual(
            states.last,
            .loaded([
                Article(id: 10, title: "Recorded once", likes: 3), Article(id: 11, title: "Replayed forever", likes: 5),
            ]))
    }
}
