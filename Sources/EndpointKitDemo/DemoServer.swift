import EndpointKitTestServer
import Foundation

/// The embedded loopback server: the few httpbin routes the demo uses, so the same endpoints
/// run against it or against a real httpbin (`--base-url`).
enum DemoServer {
    static func start() throws -> TestServer {
        let server = try TestServer()
        server.route("/get") { request in
            var args: [String: Any] = [:]
            for (name, value) in request.query {
                switch args[name] {
                case let list as [String]: args[name] = list + [value]
                case let single as String: args[name] = [single, value]
                default: args[name] = value
                }
            }
            return .json(["args": args, "url": "http://127.0.0.1:\(server.port)\(request.target)"])
        }
        server.route("/anything") { request in
            let json = (try? JSONSerialization.jsonObject(with: request.body)) ?? NSNull()
            return .json(["method": request.method, "json": json])
        }
        // httpbin's /delay/{n} waits n seconds.
        server.route("/delay/*") { request in
            let seconds = Double(request.path.split(separator: "/").last ?? "") ?? 0
            return .delayed(seconds, .json(["delayed": seconds]))
        }
        return server
    }
}
