/// What a soak run found, its checks, and the summary printed for it.
struct SoakReport: Sendable {
    let settings: SoakSettings
    /// Requests sent (fewer than asked only when the run got stuck).
    let sent: Int
    /// Completion calls, duplicates included.
    let completions: Int
    /// Requests that completed at least once.
    let completedRequests: Int
    /// Indexes of requests that never completed.
    let missing: [Int]
    /// Indexes of requests that completed more than once.
    let duplicates: [Int]
    /// First completions by outcome.
    let outcomes: [SoakOutcome: Int]
    /// Outcomes the request's kind does not allow (`kind -> outcome`), with counts.
    let unexpected: [String: Int]
    /// The error of the first of each unexpected outcome.
    let unexpectedExamples: [String: String]
    /// Requests still in the client's registry at the end.
    let clientInFlight: Int
    /// Transfers still in the transport's registry at the end (`nil` if it has none to read).
    let transportActive: Int?
    /// Open descriptors before and after (`nil` without `/proc`).
    let fileDescriptors: (before: Int?, after: Int?)
    /// Resident memory before, after and at the peak, in KiB (`nil` without `/proc`).
    let residentKiB: (before: Int?, after: Int?, peak: Int?)
    let wallSeconds: Double
    /// The impaired link between client and server, if there was one.
    var link: SoakLink? = nil
    /// Outcomes put down to the link (``SoakLedger/attributed``).
    var attributed: [SoakOutcome: Int] = [:]

    /// The checks that failed, one sentence each; empty when the run passed.
    var failures: [String] {
        var failures: [String] = []
        if sent != settings.requests || completions != settings.requests || completedRequests != settings.requests {
            failures.append(
                "\(completions) completions of \(completedRequests) requests for \(settings.requests) requests "
                    + "(\(sent) sent); never completed: \(sample(missing))")
        }
        if !duplicates.isEmpty {
            failures.append("\(duplicates.count) requests completed more than once: \(sample(duplicates))")
        }
        if !unexpected.isEmpty {
            failures.append("outcomes the route cannot give: \(unexpectedList)")
        }
        if clientInFlight != 0 || (transportActive ?? 0) != 0 {
            failures.append(
                "registry not empty: \(clientInFlight) requests in the client, \(transportActive ?? 0) transfers "
                    + "in the transport")
        }
        if let before = fileDescriptors.before, let after = fileDescriptors.after,
            after > before + settings.fileDescriptorTolerance
        {
            failures.append("open descriptors grew from \(before) to \(after)")
        }
        if let before = residentKiB.before, let after = residentKiB.after,
            after > before + settings.residentMemoryToleranceKiB
        {
            failures.append("resident memory grew from \(Format.mebibytes(before)) to \(Format.mebibytes(after)) MiB")
        }
        if let link { failures += link.failures(attributed: attributed) }
        return failures
    }

    /// Whether every check passed.
    var passed: Bool { failures.isEmpty }

    /// The summary: one line per measure, then the failed checks.
    var lines: [String] {
        let general = outcomes.filter { if case .transportError = $0.key { return false } else { return true } }
        let transport = outcomes.filter { if case .transportError = $0.key { return true } else { return false } }
        func list(_ counts: [SoakOutcome: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        func mebibytes(_ kibibytes: Int?) -> String { kibibytes.map { Format.mebibytes($0) + " MiB" } ?? "?" }
        func count(_ value: Int?) -> String { value.map(String.init) ?? "?" }
        var rows = [
            ["requests", "\(settings.requests), \(settings.inFlight) in flight, seed \(settings.seed)"],
            ["completions", "\(completions) (\(list(general)))"],
            ["transport errors", list(transport).isEmpty ? "none" : list(transport)],
            [
                "duplicates",
                "\(duplicates.count), never completed \(missing.count), unexpected outcomes \(unexpectedCount)",
            ],
            [
                "registry",
                "\(clientInFlight) requests in the client, \(count(transportActive)) transfers in the transport",
            ],
            [
                "open fds",
                "\(count(fileDescriptors.before)) before, \(count(fileDescriptors.after)) after "
                    + "(tolerance +\(settings.fileDescriptorTolerance))",
            ],
            [
                "RSS",
                "\(mebibytes(residentKiB.before)) before, \(mebibytes(residentKiB.after)) after "
                    + "(tolerance +\(Format.mebibytes(settings.residentMemoryToleranceKiB)) MiB\(allowance)), "
                    + "peak \(mebibytes(residentKiB.peak))",
            ],
            [
                "wall time",
                "\(Format.fixed(wallSeconds, 1)) s (\(Format.rate(Double(completions) / max(wallSeconds, 1e-9))))",
            ],
        ]
        if let link { rows += link.rows(attributed: attributed) }
        rows.append(["result", passed ? "PASS" : "FAIL"])
        rows += failures.map { ["  failed", $0] }
        rows += unexpectedExamples.sorted { $0.key < $1.key }.map { ["  example", "\($0.key): \($0.value)"] }
        return ["soak over \(settings.transport.name)"] + Format.columns(rows).map { "  " + $0 }
    }

    /// How the memory tolerance includes the transport's own retention, if it does.
    private var allowance: String {
        let perRequest = settings.transport.retainedBytesPerRequest
        guard perRequest > 0 else { return "" }
        return ", of which \(perRequest) B a request that URLSession itself keeps"
    }

    private var unexpectedCount: Int { unexpected.values.reduce(0, +) }

    private var unexpectedList: String {
        unexpected.sorted { $0.value > $1.value }.prefix(8).map { "\($0.key) x\($0.value)" }.joined(separator: ", ")
    }

    /// Up to ten indexes, then how many more.
    private func sample(_ indexes: [Int]) -> String {
        let shown = indexes.prefix(10).map(String.init).joined(separator: ", ")
        return indexes.count > 10 ? "\(shown) and \(indexes.count - 10) more" : shown
    }
}
