import EndpointKit
import EndpointKitStreaming
import EndpointKitTesting
import Foundation
import XCTest

/// Stubbed streams: app code that reads events, tested without a server.
final class StubStreamTests: XCTestCase {
    private let stubs = StubTransport()

    struct LiveScores: StreamingRequest {
        var reconnection = StreamReconnection.never
        var idleTimeout: TimeInterval?
        var path: RequestPath { "/scores" }
        var format: StreamFormat<ServerSentEvent> { .serverSentEvents }
    }

    struct Blocks: StreamingRequest {
        var path: RequestPath { "/blocks" }
        var bufferSize: Int { 64 }
        var format: StreamFormat<Data> { .chunks }
    }

    /// App code under test: keeps the latest score of a live game.
    actor ScoreBoard {
        private(set) var scores: [String] = []
        private(set) var failure: (any Error)?

        func follow(on client: APIClient, _ request: LiveScores = LiveScores()) async {
            do {
                for try await event in client.stream(request) where event.event == "score" {
                    scores.append(event.data)
                }
            } catch {
                failure = error
            }
        }
    }

    /// Runs `operation` in a Task that is cancelled after `timeout` seconds, so that a stream that
    /// never ends (a bug) fails the test instead of hanging it.
    private func bounded<Value: Sendable>(
        _ timeout: TimeInterval = 10, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let task = Task { try await operation() }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
            task.cancel()
        }
        defer { watchdog.cancel() }
        return try await task.value
    }

    func testThatAStubbedEventStreamFeedsTheCodeThatReadsIt() async throws {
        stubs.stub(
            .request(LiveScores.self),
            with: .stream([
                .event("1-0", id: "1", event: "score"), .event("ping", event: "heartbeat", after: 0.01),
                .event("2-0", id: "2", event: "score", after: 0.01),
            ]))
        let board = ScoreBoard()
        let client = makeClient(stubs)
        try await bounded { await board.follow(on: client) }
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0", "2-0"])
        XCTAssertNil(failure)
    }

    func testThatAStubbedEventStreamReconnectsFromItsLastEventID() async throws {
        stubs.stub(
            .request(LiveScores.self),
            sequence: [
                .stream([.event("1-0", id: "1", event: "score", retry: 0.01)], endingWith: .connectionLost),
                .stream([.event("1-1", id: "2", event: "score")]), .status(204),
            ])
        let board = ScoreBoard()
        let client = makeClient(stubs)
        try await bounded { await board.follow(on: client, LiveScores(reconnection: .default)) }
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0", "1-1"])
        XCTAssertEqual((failure as? APIFailure)?.serverFailure?.statusCode, 204)
        XCTAssertEqual(
            stubs.recordedRequests.map { $0.urlRequest.value(forHTTPHeaderField: "Last-Event-ID") }, [nil, "1", "2"])
    }

    func testThatStubbedPiecesWaitForAReaderThatIsBehind() async throws {
        // Every piece is larger than the request's buffer: each waits until the reader took the last.
        let pieces = (0..<40).map { index in Data(repeating: UInt8(index), count: 100) }
        stubs.stub(.request(Blocks.self), with: .stream(pieces.map { StubStreamChunk($0) }))
        let client = makeClient(stubs)
        let received = try await bounded {
            var received: [Data] = []
            for try await block in client.stream(Blocks()) {
                received.append(block)
                try await Task.sleep(nanoseconds: 1_000_000)
            }
            return received
        }
        XCTAssertEqual(received, pieces)
    }

    func testThatAStubbedStreamCanBeCut() async throws {
        stubs.stub(
            .request(LiveScores.self), with: .stream([.event("1-0", event: "score")], endingWith: .connectionLost))
        let board = ScoreBoard()
        let client = makeClient(stubs)
        try await bounded { await board.follow(on: client) }
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0"])
        XCTAssertEqual((failure as? APIFailure)?.transportError?.reason, .connectionLost)
    }

    func testThatAStubbedStreamHonoursTheIdleTimeout() async throws {
        stubs.stub(.request(LiveScores.self), with: .stream([.event("late", event: "score", after: 5)]))
        let board = ScoreBoard()
        let client = makeClient(stubs)
        try await bounded { await board.follow(on: client, LiveScores(idleTimeout: 0.1)) }
        let failure = await board.failure
        XCTAssertEqual((failure as? APIFailure)?.transportError?.reason, .timedOut)
        XCTAssertEqual((failure as? APIFailure)?.transportError?.timeoutLimit, .idle)
    }

    func testThatARequestThatDoesNotStreamGetsTheWholeBody() async throws {
        stubs.stub(.request(GetBytes.self), with: .stream(["ab", StubStreamChunk("cd", after: 0.01)]))
        let body = try await makeClient(stubs).value(for: GetBytes())
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "abcd")
    }
}
