import Foundation
import SampleTestServer

/// The news app's backend on a loopback server: the routes `NewsScreen` uses, each refusing a
/// request without the session token.
enum NewsBackend {
    static let token = "s3cr3t"
    static let coverSize = 64 * 1024

    /// A server with every route of the backend.
    /// - Parameter profileGate: When given, each `/me` request takes it first (waiting for it, 10
    ///   seconds at most): a test holds the server's answer back with it.
    static func start(profileGate: DispatchSemaphore? = nil) throws -> TestServer {
        let server = try TestServer()
        server.route("/me") { request in
            _ = profileGate?.wait(timeout: .now() + 10)
            return signedIn(request) { .json(["id": 1, "name": "Ada Lovelace", "featuredArticleID": 3]) }
        }
        server.route("/articles") { request in signedIn(request) { page(request) } }
        server.route("/articles/*") { request in signedIn(request) { article(request) } }
        server.route("/comments") { request in signedIn(request) { comment(request) } }
        server.route("/live") { request in signedIn(request) { headlines(request) } }
        return server
    }

    private static func signedIn(_ request: TestRequest, _ answer: () -> TestResponse) -> TestResponse {
        guard request.header("Authorization") == "Bearer \(token)" else {
            return .json(["message": "Sign in again."], status: 401)
        }
        return answer()
    }

    /// `/articles/{id}`, `/articles/{id}/cover`.
    private static func article(_ request: TestRequest) -> TestResponse {
        let parts = request.path.split(separator: "/")
        guard parts.count >= 2, let id = Int(parts[1]) else { return .status(404) }
        if parts.count == 3, parts[2] == "cover" {
            return .response(
                status: 200, headers: [("Content-Type", "image/jpeg")], body: TestServer.patternBytes(count: coverSize))
        }
        return .json(["id": id, "title": "Article \(id)"])
    }

    /// `/articles?page=&pageSize=&section=`: five latest articles, three in the archive.
    private static func page(_ request: TestRequest) -> TestResponse {
        let archive = request.queryValue("section") == "archive"
        let count = archive ? 3 : 5
        let number = Int(request.queryValue("page") ?? "") ?? 1
        let size = Int(request.queryValue("pageSize") ?? "") ?? 2
        let ids = Array(1...count).dropFirst((number - 1) * size).prefix(size)
        let items = ids.map { ["id": $0, "title": archive ? "Archived \($0)" : "Latest \($0)"] as [String: Any] }
        return .json(["items": items, "hasMore": (ids.last ?? count) < count])
    }

    /// `POST /comments` with `{"articleID":..,"text":..}`: the article, with the comment in its title.
    private static func comment(_ request: TestRequest) -> TestResponse {
        guard request.method == "POST",
            let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
            let id = body["articleID"] as? Int, let text = body["text"] as? String
        else { return .json(["message": "Bad comment."], status: 400) }
        return .json(["id": id, "title": "Article \(id): \(text)"])
    }

    /// `/live`: two headlines as server-sent events, then the connection closes; the reconnection
    /// (with `Last-Event-ID`) is told to stop with 204.
    private static func headlines(_ request: TestRequest) -> TestResponse {
        guard request.header("Last-Event-ID") == nil else { return .status(204) }
        let events = """
            retry: 10

            id: 1
            data: {"title":"Markets open"}

            id: 2
            data: {"title":"Rain expected"}


            """
        return .response(status: 200, headers: [("Content-Type", "text/event-stream")], body: Data(events.utf8))
    }
}
