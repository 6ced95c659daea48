import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streaming requests through each transport: elements as they arrive, every event-stream
/// parsing rule over the wire, reconnection, a cut stream and a refused one.
extension TransportConformanceTests {
    func testThatStreamElementsArriveWhileTheBodyIsStillComing() throws {
        try forEachTransport {
            let firstArrived = DispatchSemaphore(value: 0)
            server.route("/lines") { _ in
                .streamed(status: 200, headers: [("Content-Type", "text/plain")]) { body in
                    body.send("first\nsec")
                    // The rest waits until the client has the first line.
                    guard firstArrived.wait(timeout: .now() + 10) == .success else { return }
                    body.send("ond\r\nthird")
                }
            }
            let streamed = streamAndWait(LineStream()) { line in
                if line == "first" { firstArrived.signal() }
            }
            XCTAssertEqual(streamed.elements, ["first", "second", "third"])
            XCTAssertEqual(streamed.result?.value?.bytesReceived, 19)
        }
    }

    func testThatAnEventStreamFollowsEveryParsingRuleOverTheWire() throws {
        try forEachTransport {
            // A leading BOM split across writes, CRLF split between its CR and LF, lone CRs,
            // comments, multi-line data, an id with NUL, a retry that is not all digits, a
            // block without data, and an unfinished block at the end.
            let pieces: [[UInt8]] = [
                [0xEF, 0xBB], [0xBF] + Array(": comment\r\nid: 1\r\nevent: add\r".utf8),
                Array("\ndata: one\r\ndata:two\r\n\r".utf8), Array("\nid: 2\u{0}x\rdata:  three\r\rretry: 5s\n".utf8),
                Array("data\n\nid: 9\n\n: keep-alive\n\nid: 10\ndata: unfinished\n".utf8),
            ]
            server.route("/events") { _ in
                .streamed(status: 200, headers: [("Content-Type", "text/event-stream")]) { body in
                    for piece in pieces {
                        guard body.send(Data(piece)), body.wait(0.01) else { return }
                    }
                }
            }
            let streamed = streamAndWait(EventStream(reconnection: .never))
            XCTAssertEqual(
                streamed.elements,
                [
                    ServerSentEvent(event: "add", data: "one\ntwo", id: "1"), ServerSentEvent(data: " three", id: "1"),
                    ServerSentEvent(data: "", id: "1"),
                ])
            XCTAssertEqual(streamed.result?.value?.lastEventID, "9")
        }
    }

    func testThatAnEventStreamReconnectsWithItsLastEventID() throws {
        try forEachTransport {
            let lastEventIDs = Locked<[String]>([])
            server.route("/events") { request in
                let sent = request.header("Last-Event-ID") ?? ""
                let connection = lastEventIDs.withLock { ids -> Int in
                    ids.append(sent)
                    return ids.count
                }
                switch connection {
                case 1: return .pieces(["retry: 10\nid: a\ndata: 1\n\nid: b\ndata: 2\n\ndata: cut"], cut: true)
                case 2: return .pieces(["id: c\ndata: 3\n\n"])
                default: return .status(204)
                }
            }
            let streamed = streamAndWait(EventStream())
            XCTAssertEqual(streamed.elements.map(\.data), ["1", "2", "3"])
            XCTAssertEqual(lastEventIDs.value, ["", "b", "c"])
            XCTAssertEqual(streamed.result?.serverFailure?.statusCode, 204)
        }
    }

    func testThatACutStreamFailsAfterTheElementsItDelivered() throws {
        try forEachTransport {
            server.route("/lines") { _ in .pieces(["1\n2\n", "3"], delay: 0.01, cut: true) }
            let streamed = streamAndWait(LineStream())
            XCTAssertEqual(streamed.elements, ["1", "2"])
            XCTAssertEqual(streamed.result?.transportReason, .connectionLost)
        }
    }

    func testThatARefusedStreamIsAServerFailureWithItsBody() throws {
        try forEachTransport {
            server.route("/lines") { _ in .json(["message": "Not yours"], status: 403) }
            let streamed = streamAndWait(LineStream())
            XCTAssertEqual(streamed.elements, [])
            XCTAssertEqual(streamed.result?.serverFailure?.statusCode, 403)
            XCTAssertEqual(streamed.result?.serverFailure?.message, "Not yours")
        }
    }

    func testThatTheSizeCapBoundsARefusedBodyButNotTheStream() throws {
        try forEachTransport {
            client = makeClient { $0.maximumResponseSize = 1000 }
            let lines = (0..<500).map { "line \($0)\n" }
            server.route("/lines") { _ in .pieces(lines) }
            let accepted = streamAndWait(LineStream())
            XCTAssertEqual(accepted.elements.count, 500, "a stream is not bounded, only a line is")
            XCTAssertEqual(accepted.result?.isSuccess, true)
            let body = lines.map { Data($0.utf8) }
            server.route("/lines") { _ in
                .chunked(status: 500, headers: [], chunks: body, delayBetweenChunks: 0)
            }
            let refused = streamAndWait(LineStream())
            XCTAssertEqual(refused.elements, [])
            XCTAssertEqual(refused.result?.transportReason, .responseTooLarge(limit: 1000))
        }
    }
}
