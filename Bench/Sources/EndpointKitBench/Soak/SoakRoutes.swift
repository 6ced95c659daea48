import BenchTestServer
import Foundation

/// The soak's own routes on the test server; the faults are the server's built-in `/fault/...`
/// and `/status/...` routes.
enum SoakRoutes {
    /// The user JSON.
    static let user = "/soak/user"
    /// The user JSON, chunked in three.
    static let chunkedUser = "/soak/chunked"
    /// The user JSON after `?ms=` milliseconds.
    static let delayedUser = "/soak/delayed"
    /// A `statusResult` envelope around the user.
    static let envelope = "/soak/envelope"
    /// A `statusResult` envelope with a failing business status.
    static let businessFailure = "/soak/business-failure"
    /// `200` JSON that is not a user.
    static let wrongShape = "/soak/wrong-shape"

    /// Adds the routes to `server`.
    static func install(on server: TestServer) {
        let json = [("Content-Type", "application/json")]
        let user = Payloads.user
        server.route(Self.user) { _ in .response(status: 200, headers: json, body: user) }
        let third = user.count / 3
        let chunks = [user.prefix(third), user.dropFirst(third).prefix(third), user.dropFirst(2 * third)]
        server.route(chunkedUser) { _ in
            .chunked(status: 200, headers: json, chunks: chunks.map { Data($0) }, delayBetweenChunks: 0)
        }
        server.route(delayedUser) { request in
            let milliseconds = request.queryValue("ms").flatMap { Double($0) } ?? 5
            return .delayed(min(max(milliseconds, 0), 1000) / 1000, .response(status: 200, headers: json, body: user))
        }
        let wrapped = Data(#"{"status":200,"errCode":null,"errMsg":null,"result":"#.utf8) + user + Data("}".utf8)
        server.route(envelope) { _ in .response(status: 200, headers: json, body: wrapped) }
        server.route(businessFailure) { _ in
            .json(string: #"{"status":401,"errCode":"E401","errMsg":"The session expired.","result":null}"#)
        }
        server.route(wrongShape) { _ in .json(string: #"{"id":"not a number","items":[1,2,3]}"#) }
    }
}
