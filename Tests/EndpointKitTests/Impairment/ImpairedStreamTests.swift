import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streamed bodies through a ``LinkImpairer``, once per transport: jitter and tiny pieces neither
/// reorder nor lose an element, and an event stream whose connection the link resets picks up
/// after its last event, with nothing lost and nothing twice.
final class ImpairedStreamTests: TransportTestCase {
    private var impairer: LinkImpairer!

    /// Runs `body` once per transport with a client whose every byte crosses `profile`.
    private func throughImpairedLink(_ profile: LinkProfile, _ body: () throws -> Void) throws {
        try forEachTransport {
            impairer = try LinkImpairer(upstreamPort: server.port, profile: profile, seed: 18)
            defer { impairer.stop() }
            client = makeClient { $0.baseURL = self.impairer.baseURL }
            try body()
        }
    }

    func testThatJitterAndTinyPiecesNeitherReorderNorLoseStreamedLines() throws {
        // GIVEN a link with jitter that forwards at most 13 bytes a write, so lines and UTF-8
        // characters are split between reads
        let jittery = LinkProfile(
            name: "jittery", upload: LinkDirection(latency: 0.002, jitter: 0.004),
            download: LinkDirection(latency: 0.002, jitter: 0.004, maximumPieceSize: 13))
        let count = 600
        try throughImpairedLink(jittery) {
            server.route("/items") { _ in
                .streamed(status: 200, headers: [("Content-Type", "application/x-ndjson")]) { body in
                    var id = 0
                    while id < count {
                        // Pieces of 1 to 7 lines, cut wherever the bytes fall.
                        let lines = (id..<min(count, id + 1 + id % 7)).map { #"{"id":\#($0),"name":"é\#($0)"}"# }
                        guard body.send(Data((lines.joined(separator: "\n") + "\n").utf8)) else { return }
                        id += lines.count
                    }
                }
            }

            // WHEN the stream is read as NDJSON
            let streamed = streamAndWait(ItemStream())

            // THEN every item came, once, in order
            XCTAssertEqual(streamed.elements.map(\.id), Array(0..<count))
            XCTAssertEqual(streamed.elements.last?.name, "é\(count - 1)")
            XCTAssertNotNil(streamed.result?.value, "\(String(describing: streamed.result))")
        }
    }

    func testThatAnEventStreamResetByTheLinkGoesOnAfterItsLastEvent() throws {
        // GIVEN a slightly jittery link and a server that resumes after the Last-Event-ID it gets
        let link = LinkProfile(
            name: "jitter", upload: LinkDirection(latency: 0.001, jitter: 0.002),
            download: LinkDirection(latency: 0.001, jitter: 0.002, maximumPieceSize: 200))
        let last = 300
        try throughImpairedLink(link) {
            server.route("/events") { request in
                let after = request.header("Last-Event-ID").flatMap(Int.init) ?? 0
                return .streamed(status: 200, headers: [("Content-Type", "text/event-stream")]) { body in
                    for id in stride(from: after + 1, through: last, by: 1) {
                        guard body.send("id: \(id)\nretry: 10\ndata: event \(id)\n\n"), body.wait(0.002) else { return }
                    }
                }
            }

            // WHEN the link resets the connection twice while events flow
            let impairer = impairer!
            let streamed = streamAndWait(
                EventStream(reconnection: StreamReconnection(delay: 0.01, maximumReconnects: 5))
            ) { event in
                if event.id == "60" || event.id == "170" { impairer.resetConnections() }
            }

            // THEN every event came exactly once, in order, over more than one connection
            XCTAssertEqual(streamed.elements.compactMap { $0.id.flatMap(Int.init) }, Array(1...last))
            XCTAssertEqual(Set(streamed.elements.map(\.data)).count, last, "no event twice")
            XCTAssertGreaterThanOrEqual(impairer.statistics.resets, 1)
            XCTAssertGreaterThanOrEqual(
                streamed.result?.value?.reconnects ?? 0, 1, "\(String(describing: streamed.result))")
        }
    }
}
