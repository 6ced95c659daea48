import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Enqueue: what is on disk when it returns, what is refused and how, and what a relaunch sends.
final class OutboxStorageTests: OutboxTestCase {
    /// Adds `Authorization: Bearer token-N`, N counting the requests it adapted.
    struct CountingTokens: RequestInterceptor {
        let counter: Counter
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            counter.increment()
            var request = request
            request.setValue("Bearer token-\(counter.total)", forHTTPHeaderField: "Authorization")
            return request
        }
    }

    func testThatAnEntryIsOnDiskWhenEnqueueReturnsAndARelaunchSendsItWithItsKey() throws {
        // GIVEN an outbox that cannot send (the monitor reports no network)
        let online = Locked(false)
        var outbox: Outbox? = try makeOutbox(monitor: makeMonitor(online: online))

        // WHEN an entry is enqueued
        let id = try XCTUnwrap(outbox?.enqueue(Self.item(1), kind: "item"))

        // THEN its file is in the entries folder, and the entry waits with its key
        XCTAssertEqual(files(in: "entries").count, 1)
        let entry = try XCTUnwrap(outbox?.pending.first)
        XCTAssertEqual(entry.id, id)
        XCTAssertEqual(entry.kind, "item")
        XCTAssertEqual(entry.lane, Outbox.defaultLane)
        XCTAssertEqual(entry.method, .post)
        XCTAssertEqual(entry.url, server.url("/apply"))
        XCTAssertFalse(entry.idempotencyKey.isEmpty)

        // WHEN the process "relaunches": the outbox is released and opened again, with a network
        outbox = nil
        online.value = true
        outbox = try makeOutbox()

        // THEN the entry is sent with the same key, in the draft's form (a quoted string)
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))
        XCTAssertEqual(appliedNumbers, [1])
        let receipt = try XCTUnwrap(ledger.receipts.first)
        XCTAssertEqual(receipt.key, entry.idempotencyKey)
        XCTAssertEqual(receipt.request.header("Idempotency-Key"), "\"\(entry.idempotencyKey)\"")
        XCTAssertTrue(waitUntil { outbox?.pending.isEmpty == true && self.files(in: "entries").isEmpty })
    }

    func testThatTheRequestIsStoredBeforeInterceptorsAndEachAttemptGetsAFreshToken() throws {
        // GIVEN a client whose interceptor adds a new token to every request, and a server that
        // refuses the first attempt with a 503
        let tokens = Counter()
        let client = makeClient { $0.interceptors = [CountingTokens(counter: tokens)] }
        ledger.refuse { _ in tokens.total < 2 ? 503 : nil }
        let online = Locked(false)
        let outbox = try makeOutbox(client: client, monitor: makeMonitor(online: online))

        // WHEN an entry is enqueued
        try outbox.enqueue(Self.item(7))

        // THEN the stored request has no token
        let file = try XCTUnwrap(files(in: "entries").first)
        let stored = try Data(contentsOf: directory.appendingPathComponent("entries").appendingPathComponent(file))
        XCTAssertNil(String(decoding: stored, as: UTF8.self).range(of: "Bearer"))

        // WHEN it is sent: refused once, then applied
        online.value = true
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))

        // THEN each attempt carried its own token, and the same key
        let receipts = ledger.receipts
        XCTAssertEqual(receipts.map { $0.request.header("Authorization") }, ["Bearer token-1", "Bearer token-2"])
        XCTAssertEqual(Set(receipts.map(\.key)).count, 1)
        XCTAssertEqual(receipts.map(\.status), [503, 201])
    }

    func testThatAnEndpointsOwnIdempotencyKeyIsKept() throws {
        let outbox = try makeOutbox()
        var request = Self.item(3)
        request.headers["Idempotency-Key"] = "\"order-3\""
        try outbox.enqueue(request)
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))
        XCTAssertEqual(ledger.applied.first?.key, "order-3")
    }

    func testThatOnlyOneOutboxAtATimeHasADirectory() throws {
        let outbox = try makeOutbox()
        XCTAssertThrowsError(try makeOutbox()) { error in
            XCTAssertEqual(error as? OutboxError, .directoryInUse(path: self.directory.path))
        }
        withExtendedLifetime(outbox) {}
    }

    func testThatFullOutboxesAreTypedErrorsThatStoreNothing() throws {
        // GIVEN an outbox that holds two entries and cannot send
        let online = Locked(false)
        var outbox = try makeOutbox(monitor: makeMonitor(online: online)) { $0.maximumEntries = 2 }
        try outbox.enqueue(Self.item(1))
        try outbox.enqueue(Self.item(2))

        // WHEN a third is enqueued THEN it is refused, and nothing was added
        XCTAssertThrowsError(try outbox.enqueue(Self.item(3))) { error in
            XCTAssertEqual(error as? OutboxError, .entryLimitReached(2))
        }
        XCTAssertEqual(outbox.pending.count, 2)
        XCTAssertEqual(files(in: "entries").count, 2)
        XCTAssertEqual(files(in: "tmp"), [])

        // GIVEN a byte limit below a large body's size
        var small = Outbox.Configuration()
        small.maximumBytes = 10_000
        outbox = try Outbox(client: client, directory: directory.appendingPathComponent("small"), configuration: small)
        let large = Endpoint<Empty>(
            method: .post,
            path: "/apply",
            parameters: .data(Data(count: 20_000), contentType: "application/octet-stream")
        )
        XCTAssertThrowsError(try outbox.enqueue(large)) { error in
            XCTAssertEqual(error as? OutboxError, .byteLimitReached(10_000))
        }
        XCTAssertEqual(outbox.pending.count, 0)
    }

    func testThatARequestThatCannotBeBuiltIsATypedError() throws {
        let outbox = try makeOutbox(client: APIClient(baseURL: nil))
        XCTAssertThrowsError(try outbox.enqueue(Self.item(1))) { error in
            XCTAssertEqual(error as? OutboxError, .requestBuildFailed(.missingBaseURL))
        }
        XCTAssertEqual(files(in: "entries"), [])
    }

    func testThatAFileBodyIsCopiedSoThatItIsSentAfterTheOriginalIsGone() throws {
        // GIVEN a file to upload, enqueued while offline
        let upload = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-upload-\(UUID().uuidString)")
        let bytes = TestServer.patternBytes(count: 300_000)
        try bytes.write(to: upload)
        let online = Locked(false)
        let outbox = try makeOutbox(monitor: makeMonitor(online: online))
        try outbox.enqueue(
            Endpoint<Empty>(
                method: .post, path: "/apply", parameters: .file(upload, contentType: "application/octet-stream")))
        XCTAssertEqual(files(in: "bodies").count, 1)

        // WHEN the original is removed and the network comes back
        try FileManager.default.removeItem(at: upload)
        online.value = true

        // THEN the server gets the whole body, and the copy is removed
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))
        XCTAssertEqual(ledger.applied.first?.body, bytes)
        XCTAssertTrue(waitUntil { self.files(in: "bodies").isEmpty })
    }

    func testThatTheThreeEnqueueFormsStoreTheEntry() async throws {
        let online = Locked(false)
        let outbox = try makeOutbox(monitor: makeMonitor(online: online))
        let first = try await outbox.enqueue(Self.item(1))
        let second = expectation(description: "closure")
        let ids = Locked<[OutboxEntry.ID]>([])
        outbox.enqueue(Self.item(2)) { result in
            if case .success(let id) = result { ids.withLock { $0.append(id) } }
            second.fulfill()
        }
        await fulfillment(of: [second], timeout: 10)
        XCTAssertEqual(outbox.pending.map(\.id), [first] + ids.value)
    }
}
