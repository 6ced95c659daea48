import BenchTestServer
import Foundation

/// `endpointkit-bench --soak`: the soak over each chosen transport against the benchmark server
/// in a child process (so the server's threads and sockets are not counted as the client's).
enum SoakMode {
    /// Runs the soak for `options` and prints a summary per transport.
    /// - Returns: the exit status: 1 if a check failed or a run could not start.
    static func run(_ options: BenchOptions) -> Int32 {
        let server: ServerProcess
        do {
            server = try ServerProcess()
        } catch {
            FileHandle.standardError.write(Data("endpointkit-bench --soak: \(error)\n".utf8))
            return 1
        }
        defer { server.stop() }
        let seed = options.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        print("endpointkit-bench --soak --seed \(seed): server pid \(server.processIdentifier) on port \(server.port)")
        var failed = false
        for link in options.soakLinks {
            for transport in options.soakTransports {
                failed = !soak(over: transport, through: link, options, seed: seed, server: server) || failed
            }
        }
        return failed ? 1 : 0
    }

    /// One soak; prints its summary.
    /// - Returns: whether it passed.
    private static func soak(
        over transport: SoakTransport, through link: LinkProfile?, _ options: BenchOptions, seed: UInt64,
        server: ServerProcess
    ) -> Bool {
        let settings = SoakSettings(
            requests: options.soakRequests, inFlight: options.soakInFlight, seed: seed, transport: transport,
            baseURL: server.baseURL, link: link)
        do {
            let report = try SoakRunner.run(settings)
            report.lines.forEach { print($0) }
            return report.passed
        } catch {
            print("soak over \(transport.name): \(error)")
            return false
        }
    }
}
