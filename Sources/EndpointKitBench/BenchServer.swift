import EndpointKitTestServer
import Foundation

/// The child-process side of `--serve`: the project's loopback test server with the benchmark's
/// routes, running until standard input closes (when the parent exits or stops it).
enum BenchServer {
    /// The line that announces the port on standard output: `PORT 12345`.
    static let portPrefix = "PORT "

    /// Serves until standard input reaches end of file.
    /// - Returns: the process exit status.
    static func serve() -> Int32 {
        let server: TestServer
        do {
            server = try TestServer()
        } catch {
            FileHandle.standardError.write(Data("endpointkit-bench --serve: \(error)\n".utf8))
            return 1
        }
        let user = Payloads.user
        server.route("/model") { _ in
            .response(status: 200, headers: [("Content-Type", "application/json")], body: user)
        }
        FileHandle.standardOutput.write(Data("\(portPrefix)\(server.port)\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        server.stop()
        return 0
    }
}
