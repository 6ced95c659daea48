/// The human-readable form of a ``BenchReport``: a header, one table, and notes.
enum ReportTable {
    /// The lines to print.
    static func lines(for report: BenchReport) -> [String] {
        var lines = header(report)
        var cells = [
            [
                "#", "scenario", "EndpointKit", "baseline", "median", "ratio", "target", "", "cpu ratio", "reference",
                "peak RSS EK/base MiB",
            ]
        ]
        for row in report.rows { cells.append(self.cells(row)) }
        lines.append("")
        lines += Format.columns(cells)
        lines.append("")
        for row in report.rows where row.status == .measured {
            if let note = row.note { lines.append("note (\(row.scenario)): \(note)") }
        }
        lines.append(
            "ratio = EndpointKit median / baseline median (wall time, same rounds); cpu ratio = the same for the "
                + "client process's CPU time. A MISS is explained in Docs/Performance.md.")
        return lines
    }

    private static func header(_ report: BenchReport) -> [String] {
        var lines = [
            "endpointkit-bench (\(report.build) build, \(report.mode) run): \(report.roundsPerSide) rounds per side, "
                + "interleaved A B A B after one warm-up each; medians of wall time",
            "machine: \(report.machine.cpu), \(report.machine.cores) cores, load \(report.machine.loadAverage), "
                + report.machine.operatingSystem,
        ]
        if report.build != "release" {
            lines.append("WARNING: debug build; run `swift run -c release endpointkit-bench` for meaningful numbers")
        }
        if let server = report.server {
            lines.append(
                "server: \(server.kind), pid \(server.processIdentifier), http://127.0.0.1:\(server.port), keep-alive")
            let probes = server.capacity.map {
                "\($0.connections) connection\($0.connections == 1 ? "" : "s") \(Format.rate($0.requestsPerSecond))"
            }
            lines.append("server capacity (raw keep-alive client, GET /model): " + probes.joined(separator: "; "))
        }
        if let nginx = report.modelServer {
            let probes = nginx.capacity.map {
                "\($0.connections) connection\($0.connections == 1 ? "" : "s") \(Format.rate($0.requestsPerSecond))"
            }
            lines.append(
                "GET /model in scenarios 1, 2 and 6: \(nginx.kind), http://127.0.0.1:\(nginx.port); capacity "
                    + probes.joined(separator: "; "))
        }
        lines.append(
            report.curl.map { "reference: \($0) (one process, connection reuse; --parallel for concurrency)" }
                ?? "reference: curl not installed, no physical-limit reference")
        if !report.peakRSSPerRun {
            lines.append("peak RSS: /proc/self/clear_refs unavailable, figures are the process peak so far")
        }
        return lines
    }

    private static func cells(_ row: ResultRow) -> [String] {
        let prefix = ["\(row.scenario)", row.label]
        guard row.status == .measured, let endpointKit = row.endpointKit, let baseline = row.baseline else {
            return prefix + [row.note ?? "-", "-", "-", "-", row.targetText, "", "-", "-", "-"]
        }
        let time = { (side: SideResult) -> String in
            if let bytes = row.bytes {
                return Format.transfer(side, bytes: bytes)
            }
            if let latency = side.medianRequestSeconds {
                return Format.microseconds(latency) + "/req"
            }
            if row.perRequest != nil, let requests = row.requests {
                return Format.microseconds(side.medianWallSeconds / Double(max(requests, 1))) + "/req"
            }
            if row.scenario == 6, let requests = row.requests {
                return Format.perRequest(side.medianWallSeconds, requests: requests)
            }
            return Format.milliseconds(side.medianWallSeconds)
        }
        let verdict = row.meetsTarget.map { $0 ? "ok" : "MISS" } ?? ""
        let references = row.references.map { "\($0.name) \(time($0))" }.joined(separator: ", ")
        let memory = [endpointKit.peakRSSKiB, baseline.peakRSSKiB].map { $0.map(Format.mebibytes) ?? "-" }
        return prefix + [
            time(endpointKit), baseline.name, time(baseline), row.ratio.map { Format.fixed($0, 2) } ?? "-",
            row.targetText, verdict, row.cpuRatio.map { Format.fixed($0, 2) } ?? "-",
            references.isEmpty ? "-" : references, memory.joined(separator: "/"),
        ]
    }
}
