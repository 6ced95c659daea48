import EndpointKit
import EndpointKitComposition
import EndpointKitTestServer
import Foundation
import XCTest

/// Chains of dependent requests: each step built from the previous value.
final class ChainTests: LoopbackTestCase {
    struct StepError: Error, Equatable {}

    /// Records the paths the server saw, in order.
    let paths = Shared<[String]>([])

    override func setUpWithError() throws {
        try super.setUpWithError()
        let paths = paths
        server.route("/users/*") { request in
            paths.update { $0.append(request.path) }
            return .json(["id": 7, "name": "team-3"])
        }
        server.route("/teams/*") { request in
            paths.update { $0.append(request.path) }
            return request.path == "/teams/404" ? .status(404) : .json(["id": 3, "name": "project-12"])
        }
        server.route("/projects/*") { request in
            paths.update { $0.append(request.path) }
            return .json([["id": 12, "name": "kickoff"], ["id": 13, "name": "launch"]])
        }
        server.route("/stall") { request in
            paths.update { $0.append(request.path) }
            return .stall
        }
    }

    /// Three dependent calls: user -> team -> project tasks.
    private func threeSteps(teamPath: String? = nil) -> RequestChain<[Item]> {
        RequestChain(GetItem(path: "/users/7"))
            .then { user in GetItem(path: RequestPath(percentEncoded: teamPath ?? "/teams/\(user.name.dropFirst(5))")) }
            .then { team in GetItems(path: "/projects/\(team.name.dropFirst(8))") }
    }

    func testThatEachStepIsBuiltFromThePreviousValue() async throws {
        let tasks = try await client.send(threeSteps()).result.get()
        XCTAssertEqual(tasks.map(\.name), ["kickoff", "launch"])
        XCTAssertEqual(paths.value, ["/users/7", "/teams/3", "/projects/12"])
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatTheClosureFormReportsOnce() {
        let done = expectation(description: "chain")
        client.send(threeSteps()) { result in
            XCTAssertEqual(result.value?.count, 2)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requestCount, 3)
    }

    func testThatTheChainStopsAtTheFirstFailureWithThatFailure() async {
        let result = await client.send(threeSteps(teamPath: "/teams/404"))
        XCTAssertEqual(result.result.serverFailure?.statusCode, 404)
        XCTAssertEqual(paths.value, ["/users/7", "/teams/404"])
        XCTAssertEqual(result.failedStep, 1, "the second step, from 0")
        XCTAssertEqual(result.stepValues.compactMap { $0 as? Item }, [Item(id: 7, name: "team-3")])
    }

    func testThatAThrowingStepBecomesThatStepsFailure() async {
        let chain = RequestChain(GetItem(path: "/users/7"))
            .then { (_: Item) throws -> GetItem in throw StepError() }
            .then { (_: Item) in GetItems(path: "/projects/1") }
        let chainResult = await client.send(chain)
        XCTAssertEqual(chainResult.failedStep, 1, "the step whose then threw")
        XCTAssertEqual(chainResult.stepValues.count, 1)
        let result = chainResult.result
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .requestBuildFailed)
        XCTAssertEqual(error.underlyingError as? StepError, StepError())
        XCTAssertTrue(error.message.contains("Step 2"), error.message)
        XCTAssertEqual(paths.value, ["/users/7"])
    }

    func testThatCancellingStopsTheChainAndReportsOnce() {
        let done = expectation(description: "chain")
        let chain = RequestChain(GetItem(path: "/users/7"))
            .then { _ in GetItem(path: "/stall") }
            .then { _ in GetItems(path: "/projects/1") }
        let handle = client.send(chain) { chain in
            XCTAssertEqual(chain.result.transportReason, .cancelled)
            XCTAssertNil(chain.failedStep, "cancelled through its handle")
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 5))
        handle.cancel()
        handle.cancel()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(handle.state, .cancelled)
        XCTAssertTrue(waitUntilNothingInFlight())
        XCTAssertEqual(server.requestCount, 2, "the third step is never sent")
        XCTAssertFalse(paths.value.contains("/projects/1"))
    }

    func testThatCancellingTheTaskCancelsTheChain() async {
        let client: APIClient = client
        let chain = RequestChain(GetItem(path: "/stall")).then { _ in GetItems(path: "/projects/1") }
        let task = Task { await client.send(chain) }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        task.cancel()
        let result = await task.value
        XCTAssertEqual(result.result.transportReason, .cancelled)
        XCTAssertTrue(waitUntilNothingInFlight())
        XCTAssertEqual(server.requestCount, 1, "the second step is never sent")
    }

    /// Hears a chain the way a YTK chain delegate does.
    @MainActor final class ChainListener: ChainRequestDelegate {
        var finished: [(RequestHandle, [any Sendable])] = []
        var failed: [(RequestHandle, Int?, APIFailure, [any Sendable])] = []
        let done: XCTestExpectation
        init(done: XCTestExpectation) { self.done = done }
        func chainRequestFinished(_ chain: RequestHandle, values: [any Sendable]) {
            finished.append((chain, values))
            done.fulfill()
        }
        func chainRequestFailed(_ chain: RequestHandle, step: Int?, failure: APIFailure, values: [any Sendable]) {
            failed.append((chain, step, failure, values))
            done.fulfill()
        }
    }

    @MainActor
    func testThatTheDelegateHearsEachStepsValueOrWhichStepFailed() async {
        let succeeded = expectation(description: "finished")
        let listener = ChainListener(done: succeeded)
        let good = client.send(threeSteps(), delegate: listener)
        await fulfillment(of: [succeeded], timeout: 10)
        XCTAssertEqual(listener.finished.count, 1)
        XCTAssertEqual(listener.finished.first?.0, good)
        XCTAssertEqual(listener.finished.first?.1.count, 3, "user, team, and the project's tasks")
        XCTAssertEqual((listener.finished.first?.1.last as? [Item])?.map(\.name), ["kickoff", "launch"])

        let failedExpectation = expectation(description: "failed")
        let failing = ChainListener(done: failedExpectation)
        let bad = client.send(threeSteps(teamPath: "/teams/404"), delegate: failing)
        await fulfillment(of: [failedExpectation], timeout: 10)
        XCTAssertEqual(failing.finished.count, 0)
        XCTAssertEqual(failing.failed.count, 1)
        XCTAssertEqual(failing.failed.first?.0, bad)
        XCTAssertEqual(failing.failed.first?.1, 1)
        XCTAssertEqual(failing.failed.first?.2.statusCode, 404)
        XCTAssertEqual(failing.failed.first?.3.count, 1)
    }

    func testThatAChainCanBeSentAgain() async {
        let chain = threeSteps()
        _ = await client.send(chain)
        let again = await client.send(chain)
        XCTAssertEqual(again.value?.count, 2)
        XCTAssertEqual(server.requestCount, 6)
    }
}
