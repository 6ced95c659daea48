import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

/// Delivery: order, lanes, waiting for the network, what is retried and what becomes a dead letter.
final class OutboxDeliveryTests: OutboxTestCase {
    func testThatEntriesWaitWhileOfflineThenDrainInOrderWhenTheNetworkIsBack() throws {
        // GIVEN an outbox whose connectivity monitor reports no network
        let online = Locked(false)
        let probes = Counter()
        let outbox = try makeOutbox(monitor: makeMonitor(online: online, probes: probes))
        let log = ResultLog()
        outbox.onResult { log.append($0) }

        // WHEN five entries are enqueued, and the monitor has looked at the network a few times
        var ids: [OutboxEntry.ID] = []
        for number in 1...5 { ids.append(try outbox.enqueue(Self.item(number))) }
        let seen = probes.total
        XCTAssertTrue(waitUntil { probes.total >= seen + 5 })

        // THEN nothing was sent, and every entry waits
        XCTAssertEqual(ledger.receipts.count, 0)
        XCTAssertEqual(outbox.pending.map(\.id), ids)

        // WHEN the network comes back THEN they drain, in order, and each result is heard once
        online.value = true
        XCTAssertTrue(ledger.waitForApplied(count: 5, timeout: 10))
        XCTAssertEqual(appliedNumbers, [1, 2, 3, 4, 5])
        XCTAssertTrue(waitUntil { log.results.count == 5 })
        XCTAssertEqual(log.ids, ids)
        XCTAssertEqual(outbox.pending.count, 0)
    }

    func testThatLanesRunSideBySideAndEachKeepsItsOrder() throws {
        // GIVEN a server that answers 503 to entry 10 until told otherwise
        let blocked = Locked(true)
        ledger.refuse { request in blocked.value && Self.number(in: request.body) == 10 ? 503 : nil }
        let outbox = try makeOutbox()

        // WHEN lane "a" holds 10, 11, 12 and lane "b" holds 20, 21
        for number in [10, 11, 12] { try outbox.enqueue(Self.item(number), lane: "a") }
        for number in [20, 21] { try outbox.enqueue(Self.item(number), lane: "b") }

        // THEN lane b drains while lane a retries its first entry, holding back the others
        XCTAssertTrue(ledger.waitForApplied(count: 2, timeout: 10))
        XCTAssertTrue(ledger.waitForReceipts(count: 4, timeout: 10))
        XCTAssertEqual(appliedNumbers, [20, 21])
        XCTAssertTrue(waitUntil { outbox.pending.map(\.lane) == ["a", "a", "a"] }, "\(outbox.pending.map(\.lane))")

        // WHEN the server recovers THEN lane a drains in its order
        blocked.value = false
        XCTAssertTrue(ledger.waitForApplied(count: 5, timeout: 10))
        XCTAssertEqual(appliedNumbers, [20, 21, 10, 11, 12])
    }

    func testThatRetriedStatusesKeepTheEntryAndOthersMakeItADeadLetterThatTheAppCanRetry() throws {
        // GIVEN a server that answers 429 (with Retry-After), 500 and 408 once each, then refuses
        // entry 2 with 422 while its data is invalid
        let answers = Locked([429, 500, 408])
        let invalid = Locked(true)
        ledger.refuse { request in
            if let status = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return status }
            return invalid.value && Self.number(in: request.body) == 2 ? 422 : nil
        }
        let outbox = try makeOutbox()
        let log = ResultLog()
        outbox.onResult { log.append($0) }

        // WHEN entries 1, 2 and 3 are enqueued
        try outbox.enqueue(Self.item(1))
        let refused = try outbox.enqueue(Self.item(2), kind: "draft")
        try outbox.enqueue(Self.item(3))

        // THEN 1 is applied after three retried answers, 2 becomes a dead letter, 3 goes on
        XCTAssertTrue(ledger.waitForApplied(count: 2, timeout: 20))
        XCTAssertEqual(appliedNumbers, [1, 3])
        XCTAssertTrue(waitUntil { log.results.count == 3 })
        let deadResult = try XCTUnwrap(log.results.first { $0.entryID == refused })
        XCTAssertEqual(deadResult.deadLetterFailure?.statusCode, 422)
        XCTAssertEqual(deadResult.kind, "draft")
        XCTAssertEqual(outbox.deadLetters.map(\.id), [refused])
        XCTAssertEqual(outbox.deadLetters.first?.failure?.statusCode, 422)
        XCTAssertEqual(outbox.pending.count, 0)

        // WHEN the app fixes the cause and retries it THEN it is applied, with its key
        invalid.value = false
        try outbox.retry(refused)
        XCTAssertTrue(ledger.waitForApplied(count: 3, timeout: 10))
        XCTAssertEqual(appliedNumbers, [1, 3, 2])
        XCTAssertTrue(waitUntil { log.results.count == 4 })
        XCTAssertNotNil(log.results.last?.succeeded)
        XCTAssertEqual(log.results.last?.entryID, refused)
        XCTAssertEqual(outbox.deadLetters.count, 0)
        let keys = ledger.receipts.filter { Self.number(in: $0.request.body) == 2 }.map(\.key)
        XCTAssertEqual(Set(keys).count, 1)
        XCTAssertThrowsError(try outbox.retry(refused)) { error in
            XCTAssertEqual(error as? OutboxError, .noSuchEntry(refused))
        }
    }

    func testThatADeadLetterSurvivesARelaunchAndCanBeDiscarded() throws {
        ledger.refuse { _ in 404 }
        var outbox: Outbox? = try makeOutbox()
        let id = try XCTUnwrap(outbox?.enqueue(Self.item(1)))
        XCTAssertTrue(waitUntil { outbox?.deadLetters.count == 1 })

        outbox = nil
        outbox = try makeOutbox()
        let dead = try XCTUnwrap(outbox?.deadLetters.first)
        XCTAssertEqual(dead.id, id)
        XCTAssertEqual(dead.failure?.statusCode, 404)
        XCTAssertEqual(outbox?.pending.count, 0)

        try outbox?.discard(id)
        XCTAssertEqual(outbox?.deadLetters.count, 0)
        XCTAssertEqual(files(in: "dead"), [])
        XCTAssertEqual(ledger.receipts.count, 1)
    }

    func testThatABusinessFailureEndsTheEntryAsFailedOnTheServer() throws {
        // GIVEN a client with an envelope, and a server that answers 200 with a business error
        server.route("/refusing") { _ in .json(["status": 400, "errCode": 7, "errMsg": "too long"]) }
        let client = makeClient { $0.envelope = .statusResult() }
        let outbox = try makeOutbox(client: client)
        let log = ResultLog()
        outbox.onResult { log.append($0) }

        try outbox.enqueue(Self.item(1, path: "/refusing"))

        XCTAssertTrue(waitUntil { log.results.count == 1 })
        guard case .failedOnServer(let failure) = log.results.first?.outcome else {
            return XCTFail("expected a failure on the server, got \(String(describing: log.results.first?.outcome))")
        }
        XCTAssertEqual(failure.code, 7)
        XCTAssertEqual(failure.message, "too long")
        XCTAssertEqual(outbox.deadLetters.count, 0)
        XCTAssertEqual(outbox.pending.count, 0)
    }

    func testThatResetsAndStallsOnTheLinkLoseNothingAndApplyNothingTwice() throws {
        // GIVEN a link that resets and stalls connections (seeded), and that the test also resets
        // after every third write the server applied, before its answer gets through
        let profile = LinkProfile(
            name: "outbox", upload: LinkDirection(latency: 0.002, maximumPieceSize: 200),
            download: LinkDirection(latency: 0.002, maximumPieceSize: 200), resetsPerMebibyte: 150,
            stallsPerMebibyte: 60, stallDuration: 0.3...0.8)
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: profile, seed: 28)
        defer { impairer.stop() }
        let ledger = try XCTUnwrap(self.ledger)
        ledger.observe { receipt in
            if receipt.applied, ledger.applied.count % 3 == 0 { impairer.resetConnections() }
        }
        let client = APIClient(baseURL: impairer.baseURL) {
            $0.timeouts.idle = 0.25
            $0.timeouts.total = 2
        }
        let outbox = try makeOutbox(client: client)

        // WHEN 30 entries go out through it
        for number in 1...30 { try outbox.enqueue(Self.item(number), lane: number % 2 == 0 ? "even" : "odd") }

        // THEN each is applied exactly once, each lane in order, and some had to be sent again
        XCTAssertTrue(ledger.waitForApplied(count: 30, timeout: 60), "applied \(appliedNumbers.count)")
        XCTAssertTrue(waitUntil(timeout: 30) { outbox.pending.isEmpty })
        let applied = appliedNumbers
        XCTAssertEqual(applied.sorted(), Array(1...30))
        XCTAssertEqual(applied.filter { $0 % 2 == 0 }, Array(stride(from: 2, through: 30, by: 2)))
        XCTAssertEqual(applied.filter { $0 % 2 == 1 }, Array(stride(from: 1, through: 29, by: 2)))
        let receipts = ledger.receipts
        XCTAssertGreaterThan(receipts.count, 30, "nothing was sent again: the faults did not happen")
        XCTAssertGreaterThan(impairer.statistics.resets, 0)
        XCTAssertEqual(outbox.deadLetters.count, 0)
    }
}
