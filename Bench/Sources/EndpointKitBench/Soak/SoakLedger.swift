import Foundation

/// Every completion of a soak, recorded from any thread: how often each request completed, the
/// outcomes, and the outcomes its kind does not allow.
final class SoakLedger: @unchecked Sendable {
    private let lock = NSLock()
    /// Completions per request index (saturating at 255).
    private var completionsByIndex: [UInt8]
    private var completionCount = 0
    private var duplicateIndexes: [Int] = []
    private var outcomeCounts: [SoakOutcome: Int] = [:]
    private var unexpectedCounts: [String: Int] = [:]
    private var examples: [String: String] = [:]
    private var attributedCounts: [SoakOutcome: Int] = [:]
    /// Outcomes an impaired link may cause on any request (``SoakLink/outcomes(of:)``).
    private let linkOutcomes: Set<SoakOutcome>

    /// A ledger for requests with indexes `0..<requests`; `linkOutcomes` are allowed on any request
    /// and counted apart (``attributed``).
    init(requests: Int, linkOutcomes: Set<SoakOutcome> = []) {
        completionsByIndex = Array(repeating: 0, count: requests)
        self.linkOutcomes = linkOutcomes
    }

    /// Records a completion of `step`; `detail` (the error) is kept for the first of each
    /// unexpected outcome.
    /// - Returns: whether it was the request's first completion.
    func record(_ step: SoakStep, _ outcome: SoakOutcome, detail: @autoclosure () -> String) -> Bool {
        lock.withLock {
            completionCount += 1
            let previous = completionsByIndex[step.index]
            completionsByIndex[step.index] = previous == .max ? previous : previous + 1
            guard previous == 0 else {
                if previous == 1 { duplicateIndexes.append(step.index) }
                return false
            }
            outcomeCounts[outcome, default: 0] += 1
            let allowed = step.kind.expected.union(step.cancelAfter == nil ? [] : [.cancelled])
            if !allowed.contains(outcome) && linkOutcomes.contains(outcome) {
                // Coalesced requests share a transfer: one fault may end several of them.
                if step.kind != .coalesced { attributedCounts[outcome, default: 0] += 1 }
            } else if !allowed.contains(outcome) {
                let key = "\(step.kind.rawValue) -> \(outcome)"
                unexpectedCounts[key, default: 0] += 1
                if examples[key] == nil { examples[key] = detail() }
            }
            return true
        }
    }

    /// Every call of a completion, duplicates included.
    var completions: Int { lock.withLock { completionCount } }

    /// Requests that completed at least once.
    var completedRequests: Int { lock.withLock { completionsByIndex.count { $0 > 0 } } }

    /// Indexes of requests that completed more than once, in the order noticed.
    var duplicates: [Int] { lock.withLock { duplicateIndexes } }

    /// Indexes of requests below `sent` that never completed.
    func missing(sent: Int) -> [Int] {
        lock.withLock { completionsByIndex.prefix(sent).indices.filter { completionsByIndex[$0] == 0 } }
    }

    /// First completions by outcome.
    var outcomes: [SoakOutcome: Int] { lock.withLock { outcomeCounts } }

    /// Outcomes a request's kind does not allow (`kind -> outcome`), with their counts.
    var unexpected: [String: Int] { lock.withLock { unexpectedCounts } }

    /// Outcomes the request's kind does not give but the link may cause, with their counts
    /// (coalesced requests left out).
    var attributed: [SoakOutcome: Int] { lock.withLock { attributedCounts } }

    /// The error of the first of each unexpected outcome, by `kind -> outcome`.
    var unexpectedExamples: [String: String] { lock.withLock { examples } }
}
