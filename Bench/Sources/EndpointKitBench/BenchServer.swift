import BenchTestServer
import Foundation

/// The child-process side of `--serve`: the project's loopback test server with the benchmark's
/// routes, running until standard input closes (when the parent exits or stops it).
enum BenchServer {
    /// The line that announces the port on standard output: `PORT 12345`.
    static let portPrefix = "PORT "

    /// The chunk size of `/download`.
    static let downloadChunkSize = 1 << 20

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
        // Scenario 4. The test server reads a request body into memory (in this process, which
        // is not measured) before the handler runs; the handler only counts it.
        server.route("/upload") { request in
            .json(["received": request.body.count])
        }
        // Scenario 4: `?bytes=N` pattern bytes, chunked; every chunk shares one 1 MiB buffer, so
        // this process stays small whatever the size.
        let chunk = TestServer.patternBytes(count: downloadChunkSize)
        server.route("/download") { request in
            guard let text = request.queryValue("bytes"), let size = Int(text), size >= 0 else {
                return .text("/download needs ?bytes=N", status: 400)
            }
            var chunks = Array(repeating: chunk, count: size / downloadChunkSize)
            if size % downloadChunkSize > 0 { chunks.append(chunk.prefix(size % downloadChunkSize)) }
            return .chunked(
                status: 200, headers: [("Content-Type", "application/octet-stream")], chunks: chunks,
                delayBetweenChunks: 0)
        }
        SoakRoutes.install(on: server)
        StreamRoutes.install(on: server)
        FileHandle.standardOutput.write(Data("\(portPrefix)\(server.port)\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        server.stop()
        return 0
    }
}
