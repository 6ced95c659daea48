import EndpointKitTestServer
import EndpointKitTesting
import Foundation

/// Stands in for the app's staging backend when fixtures are recorded
/// (`ENDPOINTKIT_RECORD=1 swift test --filter SampleAppTests`); replaying needs no server at all.
enum SampleBackend {
    /// A base URL nothing listens on, for replay: a request that reached the network would fail.
    static let unreachable = URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/")

    /// The transport and base URL of a test that uses the fixtures `Fixtures/<name>`.
    struct Session {
        let transport: RecordReplayTransport
        let baseURL: URL
        private let server: TestServer?

        /// Records against a fresh backend when `ENDPOINTKIT_RECORD=1`, else replays with no server.
        init(fixtures name: String, filePath: StaticString = #filePath) throws {
            let mode = RecordReplayTransport.Mode.fromEnvironment()
            server = mode == .record ? try SampleBackend.start() : nil
            baseURL = server?.baseURL ?? SampleBackend.unreachable
            transport = RecordReplayTransport(
                directory: RecordReplayTransport.fixtures(name, nextTo: filePath), mode: mode)
        }

        func stop() { server?.stop() }
    }

    static func start() throws -> TestServer {
        let server = try TestServer()
        server.route("/me") { request in
            guard request.header("Authorization")?.hasPrefix("Bearer ") == true else {
                return .json(["error": "sign in first"], status: 401)
            }
            return .json(["id": 7, "name": "Ada Lovelace", "email": "ada@example.com"])
        }
        server.route("/feed") { _ in
            .json([
                ["id": 10, "title": "Recorded once", "likes": 3],
                ["id": 11, "title": "Replayed forever", "likes": "5"],
            ])
        }
        return server
    }
}
