@_spi(Internal) import EndpointKit
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

    /// The lock guards only the bookkeeping: a lookup answered from memory does not wait for
    /// another lookup that is reading the disk.
    func testThatAMemoryHitDoesNotWaitForADiskReadInProgress() {
        ResponseCache(directory: folder).store(entry("cold"))
        let gate = WorkGate(holding: false)
        let cache = ResponseCache(directory: folder, observingDisk: { if $0 == .read { gate.pass("read") } })
        cache.store(entry("hot"))
        gate.hold()
        let coldRead = expectation(description: "disk read")
        Thread.detachNewThread {
            XCTAssertNotNil(cache.cachedResponse(forKey: "cold"))
            coldRead.fulfill()
        }
        XCTAssertTrue(gate.waitForArrival(), "the cold lookup reads the disk")
        XCTAssertNotNil(cache.cachedResponse(forKey: "hot"))
        XCTAssertEqual(gate.steps.map(\.name), [], "the memory hit waited for the disk read to give up")
        gate.open()
        wait(for: [coldRead], timeout: 10)
        XCTAssertEqual(gate.steps.map(\.afterReturn), [true])
    }

    /// Files are read and written outside the cache's lock: a write goes to a temporary file that
    /// is renamed into place, so a reader of the same key gets one whole version, never half of
    /// one (nor none, which is what a damaged file reads as).
    func testThatConcurrentWritesAndReadsOfOneKeyNeverYieldATornEntry() {
        let cache = ResponseCache(directory: folder, memoryCapacity: 0)  // every read from the disk
        // Each version is its own byte repeated, as many times as its ETag says.
        let versions = (0..<8).map { version -> CachedResponse in
            let count = (256 << 10) + version * 4096
            let url = URL(string: "https://example.test/shared")!
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["ETag": "\"\(version)-\(count)\""])!
            return CachedResponse.make(
                from: TransportResponse(response: response, data: Data(repeating: UInt8(version), count: count)),
                request: URLRequest(url: url), key: "shared", policy: CachePolicy(lifetime: 60), isSharedCache: false)!
        }
        cache.store(versions[0])
        let reads = Counter()
        let group = DispatchGroup()
        for thread in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for round in 0..<60 {
                    if thread.isMultiple(of: 2) {
                        cache.store(versions[(thread + round) % versions.count])
                        continue
                    }
                    reads.increment()
                    // Some version is on the disk all along: a read that finds none saw a damaged file.
                    guard let entry = cache.cachedResponse(forKey: "shared") else {
                        reads.increment("torn")
                        continue
                    }
                    let parts = (entry.etag ?? "").trimmingCharacters(in: ["\""]).split(separator: "-")
                    let whole =
                        parts.count == 2
                        && entry.body == Data(repeating: UInt8(parts[0]) ?? 0, count: Int(parts[1]) ?? 0)
                    if !whole { reads.increment("torn") }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(reads.value("torn"), 0, "of \(reads.value()) reads")
        XCTAssertEqual(cache.cachedResponse(forKey: "shared").map { versions.contains($0) }, true)
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
