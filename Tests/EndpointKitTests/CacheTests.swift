import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// The response cache over loopback, counting hits on the server side.
final class CacheTests: LoopbackTestCase {
    struct Cached: APIRequest {
        typealias Response = Item
        var path: RequestPath = "/item"
        var cachePolicy: CachePolicy?
        var headers: HTTPHeaders = HTTPHeaders.empty
        var query: QueryItems = QueryItems()
        var parameters: RequestParameters { .query(query) }
    }

    private var folder: URL!
    private var cache: ResponseCache!
    private let hits = Counter()

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-cache-\(UUID().uuidString)")
        cache = ResponseCache(directory: folder)
        client = makeClient { $0.cache = self.cache }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private func route(headers: [(String, String)] = [], name: @escaping @Sendable () -> String = { "a" }) {
        let hits = hits
        server.route("/item") { request in
            hits.increment()
            return .json(["id": hits.total, "name": name()], headers: headers)
        }
    }

    private func source(_ result: APIResult<Item>) -> ResponseSource? { result.metadata?.source }

    func testThatALifetimeServesFromCacheUntilItExpires() async throws {
        route()
        let policy = CachePolicy(lifetime: 60)
        let first = await client.send(Cached(cachePolicy: policy))
        let second = await client.send(Cached(cachePolicy: policy))
        XCTAssertEqual(hits.total, 1)
        XCTAssertEqual(second.value, first.value)
        guard case .cache(_, let stale)? = source(second) else {
            return XCTFail("\(String(describing: source(second)))")
        }
        XCTAssertFalse(stale)

        let short = CachePolicy(lifetime: 0.2)
        _ = await client.send(Cached(path: "/item", cachePolicy: short, query: ["v": 1]))
        try await Task.sleep(nanoseconds: 400_000_000)
        _ = await client.send(Cached(path: "/item", cachePolicy: short, query: ["v": 1]))
        XCTAssertEqual(hits.total, 3, "the 60 s entry is still fresh; the short one expired and went out again")
    }

    func testThatAVersionBumpInvalidates() async {
        route()
        _ = await client.send(Cached(cachePolicy: CachePolicy(lifetime: 60, version: 1)))
        _ = await client.send(Cached(cachePolicy: CachePolicy(lifetime: 60, version: 1)))
        _ = await client.send(Cached(cachePolicy: CachePolicy(lifetime: 60, version: 2)))
        XCTAssertEqual(hits.total, 2)
    }

    func testThatMaxAgeIsFreshAndAnExpiresInThePastIsNot() async {
        route(headers: [("Cache-Control", "max-age=60")])
        _ = await client.send(Cached())
        _ = await client.send(Cached())
        XCTAssertEqual(hits.total, 1)
        server.route("/other") { [hits] _ in
            hits.increment()
            return .json(["id": 1, "name": "x"], headers: [("Expires", "Thu, 01 Jan 1970 00:00:00 GMT")])
        }
        _ = await client.send(Cached(path: "/other"))
        _ = await client.send(Cached(path: "/other"))
        XCTAssertEqual(hits.total, 3)
    }

    func testThatAnETag304RefreshesTheStoredEntry() async {
        let hits = hits
        let conditional = Counter()
        server.route("/item") { request in
            hits.increment()
            if request.header("If-None-Match") == "\"v1\"" {
                conditional.increment()
                return .response(
                    status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")], body: Data())
            }
            return .json(["id": 1, "name": "tagged"], headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")])
        }
        let first = await client.send(Cached())
        let second = await client.send(Cached())
        XCTAssertEqual(hits.total, 2)
        XCTAssertEqual(conditional.total, 1)
        XCTAssertEqual(second.value, first.value)
        XCTAssertEqual(source(second), .revalidated)
    }

    func testThatLastModifiedRevalidatesWithIfModifiedSince() async {
        let stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
        server.route("/item") { [hits] request in
            hits.increment()
            if request.header("If-Modified-Since") == stamp { return .status(304) }
            return .json(["id": 1, "name": "dated"], headers: [("Last-Modified", stamp)])
        }
        _ = await client.send(Cached())
        let second = await client.send(Cached())
        XCTAssertEqual(source(second), .revalidated)
        XCTAssertEqual(second.value?.name, "dated")
    }

    func testThatNoStoreIsNeverStoredEvenWithALifetime() async {
        route(headers: [("Cache-Control", "no-store")])
        _ = await client.send(Cached(cachePolicy: CachePolicy(lifetime: 60)))
        _ = await client.send(Cached(cachePolicy: CachePolicy(lifetime: 60)))
        XCTAssertEqual(hits.total, 2)
    }

    func testThatVaryKeepsVariantsApart() async {
        route(headers: [("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")])
        _ = await client.send(Cached(headers: ["Accept-Language": "en"]))
        _ = await client.send(Cached(headers: ["Accept-Language": "en"]))
        _ = await client.send(Cached(headers: ["Accept-Language": "fr"]))
        XCTAssertEqual(hits.total, 2)
    }

    func testThatCredentialsAreNotCachedUnlessOptedInAndThenPerIdentity() async {
        let hits = hits
        server.route("/item") { request in
            hits.increment()
            return .json(
                ["id": 1, "name": request.header("Authorization") ?? "-"], headers: [("Cache-Control", "max-age=60")])
        }
        _ = await client.send(Cached(headers: ["Authorization": "Bearer alice"]))
        _ = await client.send(Cached(headers: ["Authorization": "Bearer alice"]))
        XCTAssertEqual(hits.total, 2, "not stored without cachesSensitiveData")

        var sensitive = CachePolicy()
        sensitive.cachesSensitiveData = true
        let alice = await client.send(Cached(cachePolicy: sensitive, headers: ["Authorization": "Bearer alice"]))
        let aliceAgain = await client.send(Cached(cachePolicy: sensitive, headers: ["Authorization": "Bearer alice"]))
        let bob = await client.send(Cached(cachePolicy: sensitive, headers: ["Authorization": "Bearer bob"]))
        XCTAssertEqual(hits.total, 4)
        XCTAssertEqual(aliceAgain.value?.name, "Bearer alice")
        XCTAssertEqual(alice.value?.name, "Bearer alice")
        XCTAssertEqual(bob.value?.name, "Bearer bob")
    }

    func testThatAStaleEntryAnswersWhenTheServerIsGone() async {
        route(headers: [("Cache-Control", "no-cache")])
        _ = await client.send(Cached())
        server.stop()
        let offline = await client.send(Cached())
        XCTAssertEqual(offline.value?.name, "a")
        guard case .cache(_, let stale)? = source(offline) else { return XCTFail("\(offline)") }
        XCTAssertTrue(stale)

        var strict = CachePolicy()
        strict.usesStaleWhenOffline = false
        let refused = await client.send(Cached(cachePolicy: strict))
        XCTAssertEqual(refused.transportReason, .cannotConnect)
    }

    func testThatCacheOnlyAnswersFromTheCacheOrFails() async {
        route(headers: [("Cache-Control", "max-age=0")])
        let empty = await client.send(Cached(cachePolicy: CachePolicy(mode: .cacheOnly)))
        XCTAssertEqual(empty.transportReason, .notCached)
        _ = await client.send(Cached())
        let cached = await client.send(Cached(cachePolicy: CachePolicy(mode: .cacheOnly)))
        XCTAssertEqual(cached.value?.name, "a")
        XCTAssertEqual(hits.total, 1)
    }

    func testThatCachedThenRefreshedDeliversBothAndSaysWhichIsWhich() async {
        let names = Locked(["first", "second"])
        route(headers: [("Cache-Control", "max-age=60")]) {
            let next = names.value.first ?? "later"
            names.value = Array(names.value.dropFirst())
            return next
        }
        _ = await client.send(Cached())
        let seen = Locked<[String]>([])
        let done = expectation(description: "the network's answer")
        let describe: @Sendable (APIResult<Item>) -> String = { result in
            "\(result.value?.name ?? "-"):\(result.metadata?.source.isCached == true ? "cache" : "network")"
        }
        client.send(
            Cached(), cached: { result in seen.withLock { $0.append(describe(result)) } },
            completion: { result in
                seen.withLock { $0.append(describe(result)) }
                done.fulfill()
            })
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(seen.value, ["first:cache", "second:network"])
    }

    /// A request the cache may not store (credentials, no `cachesSensitiveData`), and a client with
    /// no cache at all: the cache-only lookup never reaches the network, so the server sees one
    /// request and only the network's answer comes.
    func testThatShowingCachedThenRefreshingSendsOnceWhenNothingCanBeCached() async {
        route(headers: [("Cache-Control", "max-age=60")])
        let plain = makeClient()
        for (client, request) in [(self.client!, Cached(headers: ["Authorization": "Bearer t"])), (plain, Cached())] {
            let before = hits.total
            let cachedCalls = Counter()
            let done = expectation(description: "the network's answer")
            client.send(
                request, cached: { _ in cachedCalls.increment() },
                completion: { result in
                    XCTAssertEqual(result.metadata?.source, .network)
                    done.fulfill()
                })
            await fulfillment(of: [done], timeout: 10)
            try? await Task.sleep(nanoseconds: 200_000_000)
            XCTAssertEqual(hits.total - before, 1)
            XCTAssertEqual(cachedCalls.total, 0)
        }
        let cacheOnly = await client.send(
            Cached(cachePolicy: CachePolicy(mode: .cacheOnly), headers: ["Authorization": "Bearer t"]))
        XCTAssertEqual(cacheOnly.transportReason, .notCached)
        XCTAssertEqual(hits.total, 2, "a cache-only send of an uncacheable request is not sent")
    }

    /// The handle of a cached-then-refreshed send cancelled at once (before its cache lookup ends and
    /// its network half starts) completes once, as cancelled, and sends nothing.
    func testThatCancellingACachedThenRefreshedSendAtOnceCompletesOnceAsCancelled() async {
        route(headers: [("Cache-Control", "max-age=60")])
        let completions = Counter()
        let done = expectation(description: "completion")
        let handle = client.send(
            Cached(), cached: { _ in },
            completion: { result in
                XCTAssertEqual(result.transportReason, .cancelled)
                completions.increment()
                done.fulfill()
            })
        handle.cancel()
        await fulfillment(of: [done], timeout: 10)
        try? await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(completions.total, 1)
        // The send's work starts on the processing queue: on a busy machine the request may have
        // left before the cancel, and the transfer is then cancelled, not unsent.
        XCTAssertLessThanOrEqual(hits.total, 1)
    }

    /// A request that decides its own redirects may be sent elsewhere than its URL says: its
    /// answer is neither stored under that URL nor answered from it.
    func testThatARequestWithARedirectHandlerBypassesTheCache() async {
        struct Redirecting: APIRequest {
            typealias Response = Item
            var path: RequestPath { "/item" }
            var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { { _ in .follow } }
        }
        route(headers: [("Cache-Control", "max-age=60")])
        _ = await client.send(Cached())
        XCTAssertEqual(hits.total, 1)
        let first = await client.send(Redirecting())
        let second = await client.send(Redirecting())
        XCTAssertEqual(first.metadata?.source, .network, "not answered from the entry Cached() stored")
        XCTAssertEqual(second.metadata?.source, .network)
        XCTAssertEqual(hits.total, 3)
    }

    func testThatInvalidationRemovesOneKeyAPrefixATagOrAll() async {
        route(headers: [("Cache-Control", "max-age=60")])
        _ = await client.send(Cached())
        client.removeCachedResponse(for: Cached())
        _ = await client.send(Cached())
        XCTAssertEqual(hits.total, 2)
        cache.removeAll(urlPrefix: server.baseURL.absoluteString)
        _ = await client.send(Cached())
        XCTAssertEqual(hits.total, 3)
        let tagged = CachePolicy(lifetime: 60, tags: ["feed"])
        _ = await client.send(Cached(path: "/item", cachePolicy: tagged, query: ["t": 1]))
        cache.removeAll(tagged: "feed")
        _ = await client.send(Cached(path: "/item", cachePolicy: tagged, query: ["t": 1]))
        XCTAssertEqual(hits.total, 5)
        cache.removeAll()
        XCTAssertEqual(cache.usage.memory, 0)
        XCTAssertEqual(cache.usage.disk, 0)
    }

    func testThatFailFastOfflineAnswersFromCacheWithoutTrying() async {
        route(headers: [("Cache-Control", "no-cache")])
        _ = await client.send(Cached())
        let offline = ConnectivityMonitor(pollingInterval: 60) { .offline }
        let client = makeClient {
            $0.cache = self.cache
            $0.connectivity = offline
            $0.failsFastWhenOffline = true
        }
        let cached = await client.send(Cached())
        XCTAssertEqual(cached.value?.name, "a")
        let uncached = await client.send(Cached(path: "/never"))
        XCTAssertEqual(uncached.transportReason, .notConnected)
        XCTAssertEqual(hits.total, 1)
    }
}
