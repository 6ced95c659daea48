import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache's tiers on their own: eviction, persistence, damaged files, concurrency.
final class ResponseCacheTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-rc-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func entry(_ key: String, bytes: Int = 100, tag: String? = nil) -> CachedResponse {
        let url = URL(string: "https://example.test/\(key)")!
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["ETag": "\"1\""])!
        var policy = CachePolicy(lifetime: 60)
        if let tag { policy.tags = [tag] }
        return CachedResponse.make(
            from: TransportResponse(response: response, data: Data(repeating: 7, count: bytes)),
            request: URLRequest(url: url), key: key, policy: policy, isSharedCache: false)!
    }

    func testThatEntriesSurviveANewInstance() {
        ResponseCache(directory: folder).store(entry("a"))
        let reopened = ResponseCache(directory: folder)
        XCTAssertEqual(reopened.cachedResponse(forKey: "a")?.body.count, 100)
        XCTAssertNil(reopened.cachedResponse(forKey: "b"))
    }

    func testThatTheLeastRecentlyUsedEntryIsEvictedFirst() {
        let cache = ResponseCache(directory: folder, memoryCapacity: 0, diskCapacity: 1500)
        cache.store(entry("a", bytes: 400))
        cache.store(entry("b", bytes: 400))
        _ = cache.cachedResponse(forKey: "a")
        cache.store(entry("c", bytes: 400))
        XCTAssertNotNil(cache.cachedResponse(forKey: "a"))
        XCTAssertNil(cache.cachedResponse(forKey: "b"))
        XCTAssertNotNil(cache.cachedResponse(forKey: "c"))
        XCTAssertLessThanOrEqual(cache.usage.disk, 1500)
    }

    func testThatDamagedAndForeignFilesAreRemovedNotRead() throws {
        let cache = ResponseCache(directory: folder, memoryCapacity: 0)
        cache.store(entry("good"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let name = try XCTUnwrap(files.first)
        let path = folder.appendingPathComponent(name)
        let whole = try Data(contentsOf: path)
        try whole.prefix(12).write(to: path)  // truncated
        try Data("not a cache file".utf8).write(to: folder.appendingPathComponent("foreign.txt"))
        try Data("EKC1garbage-garbage".utf8).write(to: folder.appendingPathComponent("bad.ekcache"))
        let reopened = ResponseCache(directory: folder, memoryCapacity: 0)
        XCTAssertNil(reopened.cachedResponse(forKey: "good"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("foreign.txt").path))
        reopened.store(entry("good"))
        XCTAssertEqual(reopened.cachedResponse(forKey: "good")?.body.count, 100)
    }

    func testThatAnUnwritableFolderDegradesToMemory() throws {
        try Data().write(to: folder)  // a file where the folder should be
        let cache = ResponseCache(directory: folder)
        cache.store(entry("a"))
        XCTAssertNotNil(cache.cachedResponse(forKey: "a"))
    }

    func testThatOneHundredConcurrentWritersAndReadersLeaveOneValidEntry() async {
        let cache = ResponseCache(directory: folder, memoryCapacity: 0)
        let entries = (0..<100).map { entry("shared", bytes: 50 + $0) }
        await withTaskGroup(of: Void.self) { group in
            for item in entries {
                group.addTask {
                    cache.store(item)
                    _ = cache.cachedResponse(forKey: "shared")
                }
            }
        }
        let survivor = ResponseCache(directory: folder, memoryCapacity: 0).cachedResponse(forKey: "shared")
        XCTAssertNotNil(survivor)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 1)
    }

    func testThatAClockGoingBackwardsDoesNotMakeEntriesImmortal() {
        let stored = entry("a")
        let past = stored.storedAt.addingTimeInterval(-3600)
        XCTAssertFalse(stored.isFresh(at: past))
        XCTAssertEqual(stored.age(at: past), .infinity)
        XCTAssertTrue(stored.isFresh(at: stored.storedAt.addingTimeInterval(1)))
    }

    func testThatPrivateIsNotStoredInASharedCache() {
        let url = URL(string: "https://example.test/p")!
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "private, max-age=60"])!
        let transport = TransportResponse(response: response, data: Data("x".utf8))
        let request = URLRequest(url: url)
        XCTAssertNil(
            CachedResponse.make(from: transport, request: request, key: "p", policy: .default, isSharedCache: true))
        XCTAssertNotNil(
            CachedResponse.make(from: transport, request: request, key: "p", policy: .default, isSharedCache: false))
    }
}
