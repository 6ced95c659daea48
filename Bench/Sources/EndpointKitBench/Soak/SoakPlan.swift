import BenchTestServer
import EndpointKit
import Foundation

/// One request of a soak: its kind, the request sent, and when (if ever) it is cancelled.
struct SoakStep: Sendable {
    /// The request's position in the run, its identity in the ledger.
    let index: Int
    let kind: SoakKind
    let request: SoakRequest
    /// When to cancel the handle after sending: `nil` never, 0 at once (racing the start).
    let cancelAfter: TimeInterval?
}

/// The sequence of requests of a soak, fixed by a seed: the same seed gives the same kinds,
/// timeouts, server delays and cancels (not the same timings, so outcomes may differ where a
/// cancel or timeout races the response).
struct SoakPlan {
    /// The share of requests cancelled through their handle.
    static let cancelShare = 0.08
    /// The share of cancelled requests cancelled right after sending rather than after a delay.
    static let immediateCancelShare = 0.125
    /// The longest delay before a cancel, in seconds.
    static let longestCancelDelay = 0.05
    /// The server's delay of ``SoakKind/timeoutRace``, in milliseconds.
    static let raceDelayMilliseconds = 30

    private var generator: SeededGenerator
    /// Every kind repeated by its weight, so a uniform pick follows the weights.
    private let table = SoakKind.allCases.flatMap { Array(repeating: $0, count: $0.weight) }
    /// Two quick retries, so retries and cancels during the backoff wait are exercised.
    private static let quickRetries = RetryPolicy(maxRetries: 2, baseDelay: 0.005, maximumDelay: 0.05)

    /// Starts the plan of `seed`.
    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// The next step; call with indexes 0, 1, 2... in order.
    mutating func step(_ index: Int) -> SoakStep {
        let kind = table[Int.random(in: 0..<table.count, using: &generator)]
        var query: QueryItems = []
        if kind != .coalesced { query.append("i", QueryValue(index)) }
        var timeout: TimeInterval?
        switch kind {
        case .delayed:
            query.append("ms", QueryValue(Int.random(in: 1...20, using: &generator)))
        case .timeoutRace:
            query.append("ms", QueryValue(Self.raceDelayMilliseconds))
            timeout = Double.random(in: 0.015...0.06, using: &generator)
        case .stall, .stallAfterHeaders:
            timeout = Double.random(in: 0.1...0.4, using: &generator)
        default:
            break
        }
        let usesEnvelope = kind == .envelope || kind == .businessFailure
        let request = SoakRequest(
            route: kind.path, query: query, shares: kind == .coalesced, totalTimeout: timeout,
            envelope: usesEnvelope ? KeyPathEnvelope.statusResult() : nil,
            retryPolicy: kind == .retried ? Self.quickRetries : nil)
        var cancelAfter: TimeInterval?
        if Double.random(in: 0..<1, using: &generator) < Self.cancelShare {
            let immediate = Double.random(in: 0..<1, using: &generator) < Self.immediateCancelShare
            cancelAfter = immediate ? 0 : Double.random(in: 0...Self.longestCancelDelay, using: &generator)
        }
        return SoakStep(index: index, kind: kind, request: request, cancelAfter: cancelAfter)
    }
}
