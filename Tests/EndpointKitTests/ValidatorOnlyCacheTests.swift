import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// A response with validators and no freshness (`ETag` and `Last-Modified`, no `Cache-Control` or
/// `Expires`: what nginx sends for a static file) over loopback: stored, never fresh, so every use
/// asks the server conditionally; a `304` answers from the entry.
final class ValidatorOnlyCacheTests: LoopbackTestCase {
    private struct Asset: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/static/item.json" }
        var cachePolicy: CachePolicy?
    }

    /// An old modification date: a heuristic freshness (10% of the time since it, as browsers
    /// use) would make the entry fresh for about a year.
    private static let modified = "Wed, 21 Oct 2015 07:28:00 GMT"

    private var folder: URL!
    private var cache: ResponseCache!
    private let version = Locked("5f2b1c-1a")
    private let hits = Counter()
    private let conditions = Locked<[String]>([])

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-cache-\(UUID().uuidString)")
        cache = ResponseCache(directory: folder)
        client = makeClient { $0.cache = self.cache }
        let (version, hits, conditions) = (version, hits, conditions)
        server.route("/static/item.json") { request in
            hits.increment()
            let etag = "\"\(version.value)\""
            let validators = [("ETag", etag), ("Last-Modified", Self.modified)]
            conditions.withLock {
                $0.append("\(request.header("If-None-Match") ?? "-") \(request.header("If-Modified-Since") ?? "-")")
            }
            if request.header("If-None-Match") == etag {
                return .response(status: 304, headers: validators, body: Data())
            }
            return .json(["id": hits.total, "name": version.value], headers: validators)
        }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    func testThatEveryUseRevalidatesAndA304AnswersFromTheEntry() async {
        let first = await client.send(Asset())
        XCTAssertEqual(first.metadata?.source, .network)
        let second = await client.send(Asset())
        let third = await client.send(Asset())
        XCTAssertEqual(hits.total, 3, "never fresh: every use reaches the server")
        XCTAssertEqual(second.metadata?.source, .revalidated)
        XCTAssertEqual(third.metadata?.source, .revalidated, "a 304 does not make it fresh either")
        XCTAssertEqual(second.value, first.value)
        XCTAssertEqual(third.value, first.value)
        let conditional = "\"5f2b1c-1a\" \(Self.modified)"
        XCTAssertEqual(conditions.value, ["- -", conditional, conditional], "both validators are sent")
    }

    func testThatAChangedFileReplacesTheEntry() async {
        let first = await client.send(Asset())
        version.value = "5f2b1d-1b"
        let changed = await client.send(Asset())
        XCTAssertEqual(changed.metadata?.source, .network)
        XCTAssertEqual(changed.value?.name, "5f2b1d-1b")
        XCTAssertNotEqual(changed.value, first.value)
        let again = await client.send(Asset())
        XCTAssertEqual(again.metadata?.source, .revalidated)
        XCTAssertEqual(again.value, changed.value)
    }

    func testThatALifetimeOrTheCacheOnlyModeAnswersWithoutAskingTheServer() async {
        _ = await client.send(Asset())
        let cacheOnly = await client.send(Asset(cachePolicy: CachePolicy(mode: .cacheOnly)))
        guard case .cache(_, let stale)? = cacheOnly.metadata?.source else { return XCTFail("\(cacheOnly)") }
        XCTAssertTrue(stale)
        XCTAssertEqual(hits.total, 1)

        // A lifetime of the app's own: the revalidation (a 304) makes the entry fresh for it.
        let lifetime = CachePolicy(lifetime: 60)
        let revalidated = await client.send(Asset(cachePolicy: lifetime))
        XCTAssertEqual(revalidated.metadata?.source, .revalidated)
        let fresh = await client.send(Asset(cachePolicy: lifetime))
        guard case .cache(_, let isStale)? = fresh.metadata?.source else { return XCTFail("\(fresh)") }
        XCTAssertFalse(isStale)
        XCTAssertEqual(hits.total, 2)
    }
}
