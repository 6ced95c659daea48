import BenchTestServer
import Foundation

/// The impaired link between a soak's client and its server (a ``LinkImpairer``), and what it did
/// during the measured run.
///
/// A link fault may end any request: a reset as a lost connection, a stall or half-open
/// connection as a timeout. Such outcomes are allowed beyond what a request's kind gives, but
/// never more of them than the faults that could cause them: one reset ends at most one
/// request's transfer (coalesced requests, which share a transfer, are not counted).
struct SoakLink: Sendable {
    let profile: LinkProfile
    /// The impairer's counts for the measured run alone (the warm-up's taken out).
    let statistics: LinkImpairer.Statistics

    /// The outcomes the profile's faults can cause on any request.
    static func outcomes(of profile: LinkProfile) -> Set<SoakOutcome> {
        var outcomes: Set<SoakOutcome> = []
        if profile.resetsPerMebibyte > 0 { outcomes.insert(.transport(.connectionLost)) }
        if profile.stallsPerMebibyte > 0 || profile.halfOpensPerMebibyte > 0 { outcomes.insert(.transport(.timedOut)) }
        return outcomes
    }

    /// The counts of `after` less those of `before`.
    static func difference(
        _ after: LinkImpairer.Statistics, _ before: LinkImpairer.Statistics
    )
        -> LinkImpairer.Statistics
    {
        var difference = LinkImpairer.Statistics()
        difference.connections = after.connections - before.connections
        difference.openConnections = after.openConnections
        difference.bytesUploaded = after.bytesUploaded - before.bytesUploaded
        difference.bytesDownloaded = after.bytesDownloaded - before.bytesDownloaded
        difference.resets = after.resets - before.resets
        difference.stalls = after.stalls - before.stalls
        difference.halfOpens = after.halfOpens - before.halfOpens
        difference.refusedByServer = after.refusedByServer - before.refusedByServer
        return difference
    }

    /// The checks of the outcomes put down to the link (`attributed`, by outcome), one sentence
    /// per failure.
    func failures(attributed: [SoakOutcome: Int]) -> [String] {
        var failures: [String] = []
        let lost = attributed[.transport(.connectionLost)] ?? 0
        if lost > statistics.resets {
            failures.append("\(lost) requests lost their connection to \(statistics.resets) resets of the link")
        }
        let timedOut = attributed[.transport(.timedOut)] ?? 0
        if timedOut > statistics.stalls + statistics.halfOpens {
            failures.append(
                "\(timedOut) requests timed out for \(statistics.stalls) stalls and \(statistics.halfOpens) "
                    + "half-open connections of the link")
        }
        if statistics.refusedByServer > 0 {
            failures.append("the server refused \(statistics.refusedByServer) of the link's connections")
        }
        return failures
    }

    /// The summary lines.
    func rows(attributed: [SoakOutcome: Int]) -> [[String]] {
        let put = attributed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return [
            ["link", profile.description],
            [
                "link faults",
                "\(statistics.resets) resets, \(statistics.stalls) stalls, \(statistics.halfOpens) half-open, over "
                    + "\(statistics.connections) connections; \(Format.mebibytes(statistics.bytesDownloaded / 1024)) "
                    + "MiB down, \(Format.mebibytes(statistics.bytesUploaded / 1024)) MiB up",
            ],
            ["put down to the link", put.isEmpty ? "none" : put],
        ]
    }
}
