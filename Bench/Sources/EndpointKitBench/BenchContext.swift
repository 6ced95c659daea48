import Foundation

/// What every scenario gets: the options, the server and the curl reference.
struct BenchContext {
    let options: BenchOptions
    /// The benchmark server, when a selected scenario needs one.
    let server: ServerProcess?
    /// `curl`, when installed.
    let curl: CurlReference?
    /// nginx serving `GET /model`, with `--nginx`.
    var nginx: NginxServer?

    /// The server's base URL.
    /// - Throws: ``BenchError/server(_:)`` when no server was started.
    func baseURL() throws(BenchError) -> URL {
        guard let server else { throw .server("no server was started") }
        return server.baseURL
    }

    /// Where `GET /model` is served: nginx with `--nginx`, else the bench's server.
    func modelBaseURL() throws(BenchError) -> URL {
        if let nginx { return nginx.baseURL }
        return try baseURL()
    }

    /// Measures contenders interleaved (see ``Interleaved``), honouring `--only`.
    func measure(_ contenders: [Contender], rounds: Int) async throws -> [SideResult] {
        try await Interleaved.measure(contenders, rounds: rounds, includes: options.includesContender(at:))
    }

    /// Prints a progress line on standard error (the table or JSON goes to standard output).
    func progress(_ line: String) {
        FileHandle.standardError.write(Data("[bench] \(line)\n".utf8))
    }
}
