import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Interceptors: adapting requests, and one token refresh for many concurrent 401s.
final class AuthenticationTests: LoopbackTestCase {
    /// A bearer-token interceptor whose refresh takes 0.2 s (or `delay`) and gives "new".
    private func makeAuth(
        refreshes: Counter, succeed: Bool = true, initial: String? = "old", delay: UInt64 = 200_000_000,
        requiresRefresh: @escaping @Sendable (String) -> Bool = { _ in false }
    )
        -> AuthenticationInterceptor<String>
    {
        AuthenticationInterceptor<String>(
            credential: initial,
            apply: { token, request in request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") },
            refresh: { _ in
                refreshes.increment()
                try await Task.sleep(nanoseconds: delay)
                guard succeed else { throw URLError(.userAuthenticationRequired) }
                return "new"
            },
            requiresRefresh: requiresRefresh)
    }

    /// Sends `count` `GetItem`s at once and returns their results.
    private func sendTogether(_ count: Int, through client: APIClient) async -> [APIResult<Item>] {
        await withTaskGroup(of: APIResult<Item>.self) { group in
            for _ in 0..<count { group.addTask { await client.send(GetItem()) } }
            var results: [APIResult<Item>] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    private func routeRequiringNewToken() {
        server.route("/item") { request in
            request.header("Authorization") == "Bearer new"
                ? .json(["id": 1, "name": "secret"])
                : .json(["message": "expired"], status: 401)
        }
    }

    func testThatOneHundredConcurrent401sRefreshOnceAndAllReplay() async {
        routeRequiringNewToken()
        let refreshes = Counter()
        let auth = makeAuth(refreshes: refreshes)
        let client = makeClient { $0.interceptors = [auth] }
        let results = await sendTogether(100, through: client)
        XCTAssertEqual(results.count, 100)
        XCTAssertEqual(results.filter { $0.value?.name == "secret" }.count, 100)
        XCTAssertEqual(refreshes.total, 1)
        XCTAssertEqual(auth.credential, "new")
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatAFailedRefreshFailsEveryRequestOnceWithoutLooping() async {
        routeRequiringNewToken()
        let refreshes = Counter()
        let auth = makeAuth(refreshes: refreshes, succeed: false)
        let client = makeClient { $0.interceptors = [auth] }
        let results = await sendTogether(20, through: client)
        XCTAssertEqual(results.compactMap { $0.serverFailure?.statusCode }, Array(repeating: 401, count: 20))
        XCTAssertEqual(refreshes.total, 1)
        // Later 401s with the same credential do not start refresh after refresh.
        _ = await client.send(GetItem())
        XCTAssertEqual(refreshes.total, 1)
    }

    func testThatARequestStartedDuringAFailingRefreshGetsItsOwn401() async {
        routeRequiringNewToken()
        let refreshes = Counter()
        let auth = makeAuth(refreshes: refreshes, succeed: false)
        let client = makeClient { $0.interceptors = [auth] }
        let first = Task { await client.send(GetItem()) }
        // The first 401 starts the refresh (200 ms, then it fails); the second request adapts while
        // it runs and waits for it.
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 5))
        let deadline = Date(timeIntervalSinceNow: 5)
        while refreshes.total == 0, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
        let second = await client.send(GetItem())
        let firstResult = await first.value
        XCTAssertEqual(firstResult.serverFailure?.statusCode, 401)
        XCTAssertEqual(second.serverFailure?.statusCode, 401, "\(second)")
        XCTAssertEqual(refreshes.total, 1)
    }

    func testThatAServerThatAlwaysSays401CannotCauseARefreshLoop() async {
        server.route("/item") { _ in .status(401) }
        let refreshes = Counter()
        let client = makeClient { $0.interceptors = [self.makeAuth(refreshes: refreshes)] }
        let result = await client.send(GetItem())
        XCTAssertEqual(result.serverFailure?.statusCode, 401)
        XCTAssertEqual(refreshes.total, 1)
        XCTAssertEqual(server.requestCount, 2)
    }

    func testThatACredentialAboutToExpireIsRefreshedOnceBeforeConcurrentSendsAndNo401IsSeen() async {
        // GIVEN a server counting what each credential gets, and a credential flagged as expiring
        let received = Locked<[String]>([])
        server.route("/item") { request in
            received.value.append(request.header("Authorization") ?? "-")
            return request.header("Authorization") == "Bearer new"
                ? .json(["id": 1, "name": "secret"])
                : .json(["message": "expired"], status: 401)
        }
        let refreshes = Counter()
        let auth = makeAuth(refreshes: refreshes, requiresRefresh: { $0 == "old" })
        let client = makeClient { $0.interceptors = [auth] }

        // WHEN twenty requests start together
        let results = await sendTogether(20, through: client)

        // THEN one refresh ran before any was sent, and the server only ever saw the new token
        XCTAssertEqual(results.filter { $0.value?.name == "secret" }.count, 20)
        XCTAssertEqual(refreshes.total, 1)
        XCTAssertEqual(received.value, Array(repeating: "Bearer new", count: 20))
    }

    func testThatARefreshedCredentialStillFlaggedIsNotRefreshedForEverySend() async {
        // GIVEN a refresher whose credentials always claim to be expiring
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let refreshes = Counter()
        let auth = makeAuth(refreshes: refreshes, delay: 0, requiresRefresh: { _ in true })
        let client = makeClient { $0.interceptors = [auth] }

        // WHEN three requests go out one after another
        for _ in 0..<3 { _ = await client.send(GetItem()) }

        // THEN the first refreshed, the others went out with what it gave
        XCTAssertEqual(refreshes.total, 1)
        XCTAssertEqual(auth.credential, "new")
    }

    func testThatAFailedProactiveRefreshSendsTheOldCredential() async {
        server.route("/item") { request in
            request.header("Authorization") == "Bearer old" ? .json(["id": 1, "name": "still good"]) : .status(401)
        }
        let auth = makeAuth(refreshes: Counter(), succeed: false, delay: 0, requiresRefresh: { _ in true })
        let result = await makeClient { $0.interceptors = [auth] }.send(GetItem())
        XCTAssertEqual(result.value?.name, "still good")
    }

    func testThatAMissingCredentialIsFetchedBeforeTheFirstRequest() async {
        routeRequiringNewToken()
        let refreshes = Counter()
        let client = makeClient { $0.interceptors = [self.makeAuth(refreshes: refreshes, initial: nil)] }
        let result = await client.send(GetItem())
        XCTAssertEqual(result.value?.name, "secret")
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatAnAdapterCanAddAReloadableHeader() async throws {
        let token = Locked("t1")
        let client = makeClient {
            $0.interceptors = [
                Adapter { request, _ in
                    var request = request
                    request.setValue(token.value, forHTTPHeaderField: "X-Token")
                    return request
                }
            ]
        }
        let first = try await client.value(for: EchoRequest())
        token.value = "t2"
        let second = try await client.value(for: EchoRequest())
        XCTAssertEqual([first.headers["x-token"], second.headers["x-token"]], ["t1", "t2"])
    }

    func testThatAThrowingInterceptorFailsTheRequestAsNotBuilt() async {
        let client = makeClient {
            $0.interceptors = [Adapter { _, _ in throw CocoaError(.userCancelled) }]
        }
        let result = await client.send(EchoRequest())
        XCTAssertEqual(result.transportReason, .requestBuildFailed)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testThatAnInterceptorThatNeverReturnsIsBoundedByTheTimeout() async {
        let client = makeClient {
            $0.interceptors = [
                Adapter { request, _ in
                    try await Task.sleep(nanoseconds: 60_000_000_000)
                    return request
                }
            ]
        }
        let started = Date()
        let result = await client.send(GetItem(totalTimeout: 0.5))
        XCTAssertEqual(result.transportReason, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}

/// A value behind a lock, for test state shared with `@Sendable` closures.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    /// The value; a change in place (`value.append(x)`, `value += 1`) happens whole under the lock,
    /// so two threads appending at once both land.
    var value: Value {
        get { lock.withLock { stored } }
        _modify {
            lock.lock()
            defer { lock.unlock() }
            yield &stored
        }
    }

    /// Changes the value in place, under the lock.
    func withLock<Result>(_ change: (inout Value) -> Result) -> Result { lock.withLock { change(&stored) } }
}
