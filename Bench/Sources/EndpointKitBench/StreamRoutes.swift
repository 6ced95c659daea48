import BenchTestServer
import Foundation

/// The routes of the streaming scenario (8) on the benchmark server.
enum StreamRoutes {
    /// One event at once, then nothing until the client goes away: `GET /stream/first`.
    static let first = "/stream/first"
    /// `?count=N` events of about 100 bytes, 500 to a chunk: `GET /stream/events`.
    static let events = "/stream/events"

    /// Adds the routes to `server` (the bytes come from `/download?bytes=N`).
    static func install(on server: TestServer) {
        let headers = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]
        server.route(first) { _ in
            .streamed(status: 200, headers: headers) { body in
                guard body.send("id: 1\ndata: {\"n\":1,\"text\":\"first\"}\n\n") else { return }
                body.wait(60)
            }
        }
        server.route(events) { request in
            let count = request.queryValue("count").flatMap { Int($0) } ?? 1000
            return .streamed(status: 200, headers: headers) { body in
                var start = 0
                while start < count {
                    let end = min(start + 500, count)
                    var text = ""
                    text.reserveCapacity((end - start) * 110)
                    for number in start..<end {
                        text +=
                            "id: \(number)\ndata: {\"n\":\(number),\"text\":\"event number \(number) of the bench\"}\n\n"
                    }
                    guard body.send(text) else { return }
                    start = end
                }
            }
        }
    }
}
