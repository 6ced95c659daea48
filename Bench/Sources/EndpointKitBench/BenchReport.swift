import Foundation

/// Everything one run found, as printed by `--json`.
struct BenchReport: Encodable {
    /// Where the numbers were taken.
    struct Machine: Encodable {
        let cpu: String
        let cores: Int
        /// `/proc/loadavg` when the run started: other work on the machine skews the numbers.
        let loadAverage: String
        let operatingSystem: String
    }

    /// The server the network scenarios talk to.
    struct Server: Encodable {
        let kind: String
        let processIdentifier: Int32
        let port: UInt16
        /// Requests per second of the server, probed with a raw keep-alive client.
        let capacity: [ServerCapacity]
    }

    var tool = "endpointkit-bench"
    /// `full` or `quick`.
    let mode: String
    /// `release` or `debug`: debug numbers say nothing about speed.
    let build: String
    let arguments: [String]
    let roundsPerSide: Int
    let machine: Machine
    let server: Server?
    /// nginx, when `--nginx` served `GET /model` in scenarios 1, 2 and 6.
    var modelServer: Server?
    /// The `curl` used as the physical-limit reference, if installed.
    let curl: String?
    /// Whether peak RSS is per run (`/proc/self/clear_refs` works) or the process's peak so far.
    let peakRSSPerRun: Bool
    let rows: [ResultRow]

    /// The report as pretty-printed JSON.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The machine this process runs on.
    static func currentMachine() -> Machine {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
            .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        return Machine(
            cpu: model, cores: ProcessInfo.processInfo.activeProcessorCount, loadAverage: load,
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString)
    }
}
