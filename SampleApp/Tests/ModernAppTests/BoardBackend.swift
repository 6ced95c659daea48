import Foundation
import SampleTestServer

/// The board's backend on a loopback server: the routes `BoardScreen` uses, each refusing a
/// request without the session token.
enum BoardBackend {
    static let token = "t0k3n"
    static let attachmentSize = 48 * 1024
    /// The open tickets, then the closed ones, in the order the server lists them.
    static let openTitles = ["Fix login", "Dark mode", "Crash on launch", "Faster sync", "Offline mode"]
    static let closedTitles = ["Old icon", "Typo in settings", "Slow start"]

    /// A server with every route of the backend.
    /// - Parameter memberGate: When given, each `/me` request takes it first (waiting for it, 10
    ///   seconds at most): a test holds the server's answer back with it.
    static func start(memberGate: DispatchSemaphore? = nil) throws -> TestServer {
        let server = try TestServer()
        server.route("/me") { request in
            _ = memberGate?.wait(timeout: .now() + 10)
            return signedIn(request) { .json(["id": 9, "name": "Grace Hopper", "pinnedTicketID": 4]) }
        }
        server.route("/tickets") { request in
            signedIn(request) { request.method == "POST" ? create(request) : list(request) }
        }
        server.route("/tickets/*") { request in signedIn(request) { ticket(request) } }
        server.route("/activity") { request in signedIn(request) { activity() } }
        return server
    }

    private static func signedIn(_ request: TestRequest, _ answer: () -> TestResponse) -> TestResponse {
        request.header("Authorization") == "Bearer \(token)"
            ? answer() : .json(["message": "Session expired."], status: 401)
    }

    /// `/tickets/{id}`, `/tickets/{id}/attachment`.
    private static func ticket(_ request: TestRequest) -> TestResponse {
        let parts = request.path.split(separator: "/")
        guard parts.count >= 2, let id = Int(parts[1]) else { return .status(404) }
        if parts.count == 3, parts[2] == "attachment" {
            return .response(
                status: 200, headers: [("Content-Type", "application/pdf")],
                body: TestServer.patternBytes(count: attachmentSize))
        }
        return .json(["id": id, "title": "Ticket \(id)"])
    }

    /// `/tickets?limit=&cursor=&state=`: the cursor is the index of the next ticket.
    private static func list(_ request: TestRequest) -> TestResponse {
        let titles = request.queryValue("state") == "closed" ? closedTitles : openTitles
        let start = Int(request.queryValue("cursor") ?? "") ?? 0
        let limit = Int(request.queryValue("limit") ?? "") ?? 2
        let end = min(start + limit, titles.count)
        let items = (start..<end).map { ["id": 100 + $0, "title": titles[$0]] as [String: Any] }
        var page: [String: Any] = ["items": items]
        if end < titles.count { page["next"] = "\(end)" }
        return .json(page)
    }

    /// `POST /tickets` with `{"title":..}`: the ticket created.
    private static func create(_ request: TestRequest) -> TestResponse {
        guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
            let title = body["title"] as? String
        else { return .json(["message": "A ticket needs a title."], status: 400) }
        return .json(["id": 200, "title": title], status: 201)
    }

    /// The lines of `/activity`.
    static let activityLines = [
        #"{"actor":"grace","action":"opened 101"}"#, #"{"actor":"alan","action":"closed 102"}"#,
        #"{"actor":"ada","action":"commented on 101"}"#,
    ]
    /// The bytes of `/activity`'s body.
    static let activityBytes = activityLines.reduce(0) { $0 + $1.utf8.count + 1 }

    /// `/activity`: newline-delimited JSON, written one line at a time, then the end.
    private static func activity() -> TestResponse {
        .streamed(status: 200, headers: [("Content-Type", "application/x-ndjson")]) { writer in
            for line in activityLines {
                guard writer.send(line + "\n") else { return }
            }
        }
    }
}
