import BenchTestServer
import Foundation

/// Runs the selected scenarios and prints the report.
enum BenchRunner {
    /// Runs everything `options` asks for.
    /// - Returns: the process exit status (1 when a scenario failed).
    static func run(_ options: BenchOptions) async -> Int32 {
        let scenarios = ScenarioCatalog.all.filter { options.includes(number: $0.number, name: $0.name) }
        let curl = CurlReference.find()
        var server: ServerProcess?
        var serverInfo: BenchReport.Server?
        if scenarios.contains(where: \.needsServer) {
            do {
                let started = try ServerProcess()
                server = started
                serverInfo = try probe(started, options: options)
            } catch {
                FileHandle.standardError.write(Data("endpointkit-bench: \(error)\n".utf8))
                return 1
            }
        }
        var context = BenchContext(options: options, server: server, curl: curl)
        var modelServer: BenchReport.Server?
        if options.nginx {
            do {
                let nginx = try NginxServer(model: Payloads.user)
                context.nginx = nginx
                modelServer = try probe(
                    port: nginx.port, kind: "nginx (\(nginx.executable), one process, static file)", pid: 0,
                    options: options)
            } catch {
                server?.stop()
                FileHandle.standardError.write(Data("endpointkit-bench: \(error)\n".utf8))
                return 1
            }
        }

        var rows: [ResultRow] = []
        for scenario in scenarios {
            context.progress("\(scenario.number) \(scenario.name)")
            do {
                rows += try await scenario.run(in: context)
            } catch {
                rows.append(.unmeasured(scenario, status: .failed, note: "failed: \(error)"))
            }
        }
        server?.stop()
        context.nginx?.stop()

        var report = BenchReport(
            mode: options.quick ? "quick" : "full", build: buildConfiguration,
            arguments: Array(CommandLine.arguments.dropFirst()), roundsPerSide: options.measuredRounds,
            machine: BenchReport.currentMachine(), server: serverInfo, curl: curl?.executable,
            peakRSSPerRun: ProcessMemory.canResetPeak, rows: rows)
        report.modelServer = modelServer
        if options.json {
            do {
                print(try report.json())
            } catch {
                FileHandle.standardError.write(Data("endpointkit-bench: could not encode JSON: \(error)\n".utf8))
                return 1
            }
        } else {
            ReportTable.lines(for: report).forEach { print($0) }
        }
        return rows.contains { $0.status == .failed } ? 1 : 0
    }

    /// Measures the server with one connection and with 16 (not when profiling one side: the probe
    /// runs for a fixed time, so its instruction count would differ between profiles).
    private static func probe(_ server: ServerProcess, options: BenchOptions) throws(BenchError) -> BenchReport.Server {
        try probe(
            port: server.port,
            kind: "EndpointKitTestServer (thread per connection) in a child process (endpointkit-bench --serve)",
            pid: server.processIdentifier, options: options)
    }

    private static func probe(
        port: UInt16, kind: String, pid: Int32, options: BenchOptions
    ) throws(BenchError) -> BenchReport.Server {
        let capacity = try (options.only == nil ? [1, 16] : []).map { connections throws(BenchError) in
            try ServerCapacity.measure(
                port: port, path: "/model", connections: connections, seconds: options.capacitySeconds)
        }
        return BenchReport.Server(kind: kind, processIdentifier: pid, port: port, capacity: capacity)
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }
}
