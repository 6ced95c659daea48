import EndpointKit
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

    func testThatAStubbedEventStreamFeedsTheCodeThatReadsIt() async {
        stubs.stub(
            .request(LiveScores.self),
            with: .stream([
                .event("1-0", id: "1", event: "score"), .event("ping", event: "heartbeat", after: 0.01),
                .event("2-0", id: "2", event: "score", after: 0.01),
            ]))
        let board = ScoreBoard()
        await board.follow(on: makeClient(stubs))
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0", "2-0"])
        XCTAssertNil(failure)
    }

    func testThatAStubbedEventStreamReconnectsFromItsLastEventID() async {
        stubs.stub(
            .request(LiveScores.self),
            sequence: [
                .stream([.event("1-0", id: "1", event: "score", retry: 0.01)], endingWith: .connectionLost),
                .stream([.event("1-1", id: "2", event: "score")]), .status(204),
            ])
        let board = ScoreBoard()
        await board.follow(on: makeClient(stubs), LiveScores(reconnection: .default))
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0", "1-1"])
        XCTAssertEqual((failure as? ServerFailure)?.statusCode, 204)
        XCTAssertEqual(
            stubs.recordedRequests.map { $0.urlRequest.value(forHTTPHeaderField: "Last-Event-ID") }, [nil, "1", "2"])
    }

    func testThatStubbedPiecesWaitForAReaderThatIsBehind() async throws {
        // Every piece is larger than the request's buffer: each waits until the reader took the last.
        let pieces = (0..<40).map { index in Data(repeating: UInt8(index), count: 100) }
        stubs.stub(.request(Blocks.self), with: .stream(pieces.map { StubStreamChunk($0) }))
        var received: [Data] = []
        for try await block in makeClient(stubs).stream(Blocks()) {
            received.append(block)
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        XCTAssertEqual(received, pieces)
    }

    func testThatAStubbedStreamCanBeCut() async {
        stubs.stub(
            .request(LiveScores.self), with: .stream([.event("1-0", event: "score")], endingWith: .connectionLost))
        let board = ScoreBoard()
        await board.follow(on: makeClient(stubs))
        let scores = await board.scores
        let failure = await board.failure
        XCTAssertEqual(scores, ["1-0"])
        XCTAssertEqual((failure as? TransportError)?.reason, .connectionLost)
    }

    func testThatAStubbedStreamHonoursTheIdleTimeout() async {
        stubs.stub(.request(LiveScores.self), with: .stream([.event("late", event: "score", after: 5)]))
        let board = ScoreBoard()
        await board.follow(on: makeClient(stubs), LiveScores(idleTimeout: 0.1))
        let failure = await board.failure
        XCTAssertEqual((failure as? TransportError)?.reason, .timedOut)
        XCTAssertEqual((failure as? TransportError)?.timeoutLimit, .idle)
    }

    func testThatARequestThatDoesNotStreamGetsTheWholeBody() async throws {
        stubs.stub(.request(GetBytes.self), with: .stream(["ab", StubStreamChunk("cd", after: 0.01)]))
        let body = try await makeClient(stubs).value(for: GetBytes())
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "abcd")
    }
}
