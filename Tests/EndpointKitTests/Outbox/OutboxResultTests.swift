import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

/// Results: the three ways to hear them, decoding, and results kept until someone listens.
final class OutboxResultTests: OutboxTestCase {
    /// What the ledger answers an applied write with.
    struct Applied: Decodable, Sendable, Equatable {
        let key: String
        let order: Int
    }

    @MainActor
    final class Listener: OutboxDelegate {
        var results: [OutboxResult] = []
        func outbox(_ outbox: Outbox, didFinish result: OutboxResult) { results.append(result) }
    }

    @MainActor
    func testThatTheClosureTheDelegateAndTheSequenceEachHearEveryResult() async throws {
        // GIVEN an outbox with a closure, a delegate and an iteration of its results
        let outbox = try makeOutbox()
        outbox.register(Applied.self, forKind: "item")
        let log = ResultLog()
        outbox.onResult { log.append($0) }
        let listener = Listener()
        outbox.delegate = listener
        var iterator = outbox.results.makeAsyncIterator()

        // WHEN three entries are sent
        var ids: [OutboxEntry.ID] = []
        for number in 1...3 { ids.append(try await outbox.enqueue(Self.item(number), kind: "item")) }
        var iterated: [OutboxResult] = []
        for _ in 1...3 {
            guard let result = await iterator.next() else { break }
            iterated.append(result)
        }

        // THEN each form heard each result, in order, with the decoded answer
        XCTAssertEqual(iterated.map(\.entryID), ids)
        let heard = await waitForMain { log.results.count == 3 && listener.results.count == 3 }
        XCTAssertTrue(heard)
        XCTAssertEqual(log.ids, ids)
        XCTAssertEqual(listener.results.map(\.entryID), ids)
        let orders = iterated.compactMap { $0.succeeded?.value(as: Applied.self)?.order }
        XCTAssertEqual(orders, [1, 2, 3])
        XCTAssertEqual(iterated.map(\.kind), ["item", "item", "item"])
        XCTAssertEqual(iterated.first?.succeeded?.metadata.statusCode, 201)
    }

    @MainActor
    func testThatAResultThatCameWhileNobodyListenedIsKeptAcrossARelaunchAndHandedOverOnce() async throws {
        // GIVEN an entry sent while nothing listened
        var outbox: Outbox? = try makeOutbox()
        let id = try await outbox?.enqueue(Self.item(1), kind: "item")
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))
        let recorded = await waitForMain { self.files(in: "results").count == 1 && outbox?.pending.isEmpty == true }
        XCTAssertTrue(recorded)

        // WHEN the app relaunches and listens
        outbox = nil
        outbox = try makeOutbox()
        outbox?.register(Applied.self, forKind: "item")
        var iterator = try XCTUnwrap(outbox?.results.makeAsyncIterator())
        let result = await iterator.next()

        // THEN it hears the result, decoded, and the result's file goes
        XCTAssertEqual(result?.entryID, id)
        XCTAssertEqual(result?.succeeded?.value(as: Applied.self)?.order, 1)
        let removed = await waitForMain { self.files(in: "results").isEmpty }
        XCTAssertTrue(removed)

        // WHEN it relaunches again THEN the result is not handed over again
        outbox = nil
        outbox = try makeOutbox()
        let log = ResultLog()
        outbox?.onResult { log.append($0) }
        try await outbox?.enqueue(Self.item(2), kind: "item")
        let second = await waitForMain { log.results.count == 1 }
        XCTAssertTrue(second)
        XCTAssertNotEqual(log.ids, [id].compactMap { $0 })
    }

    @MainActor
    func testThatAResultGoesToTheFirstListenerWhenNoneWasThere() async throws {
        let outbox = try makeOutbox()
        let id = try await outbox.enqueue(Self.item(1))
        XCTAssertTrue(ledger.waitForApplied(count: 1, timeout: 10))
        let done = await waitForMain { outbox.pending.isEmpty }
        XCTAssertTrue(done)
        let log = ResultLog()
        outbox.onResult { log.append($0) }
        let heard = await waitForMain { log.results.count == 1 }
        XCTAssertTrue(heard)
        XCTAssertEqual(log.ids, [id])
        // A listener that attaches later does not get it again.
        var iterator = outbox.results.makeAsyncIterator()
        try await outbox.enqueue(Self.item(2))
        let next = await iterator.next()
        XCTAssertNotEqual(next?.entryID, id)
    }

    @MainActor
    func testThatAResponseThatDoesNotDecodeAsTheRegisteredTypeSaysWhy() async throws {
        struct Other: Decodable, Sendable { let missing: String }
        let outbox = try makeOutbox()
        outbox.register(Other.self, forKind: "other")
        var iterator = outbox.results.makeAsyncIterator()
        try await outbox.enqueue(Self.item(1), kind: "other")
        let result = await iterator.next()
        XCTAssertNil(result?.succeeded?.value)
        XCTAssertEqual(result?.succeeded?.decodingError?.reason, .decodingFailed)
    }

    /// Waits (bounded) for `condition`, letting the main actor run.
    @MainActor
    func waitForMain(timeout: TimeInterval = 10, _ condition: @escaping () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }
}
