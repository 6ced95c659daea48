@_spi(Internal) import EndpointKit

/// Scenario 6: cost per request at 1k, 10k and 100k requests (16 in flight). It must stay flat:
/// nothing in the client may grow with the number of requests sent.
///
/// Each step gives one client per side its requests in interleaved chunks (A B A B ..., 10 chunks
/// of a tenth), so both sides see the same load over the step's whole life; the row shows the
/// median chunk's cost per request, and the last row says how the cost moved from the first step
/// to the last and from EndpointKit's first chunk to its last.
struct ScaleScenario: Scenario {
    let number = 6
    let name = "scale"
    let summary = "per-request cost at 1k, 10k and 100k requests"
    let targetText = "flat"
    let needsServer = true

    /// Requests in flight.
    static let width = 16

    func run(in context: BenchContext) async throws -> [ResultRow] {
        var rows: [ResultRow] = []
        var leftOver = 0
        var lastChunks: (first: Double, last: Double)?
        var totals: [Int] = []
        for step in context.options.scaleSteps {
            context.progress("  \(step.requests) requests")
            let chunk = max(1, step.requests / step.chunks)
            let comparison = try NetworkComparison(
                context: context, count: chunk, width: Self.width, delegateReference: false)
            let sides = try await context.measure(comparison.contenders, rounds: step.chunks)
            leftOver = max(leftOver, comparison.transport.activeTransferCount)
            totals.append(chunk * step.chunks)
            if let samples = sides.first?.samples, let first = samples.first, let last = samples.last {
                lastChunks = (first.wallSeconds, last.wallSeconds)
            }
            rows.append(
                .measured(
                    self,
                    label:
                        "per request @ \(chunk * step.chunks) req (\(step.chunks) x \(chunk)), \(Self.width) in flight",
                    maximumRatio: nil, requests: chunk, sides: sides))
        }
        guard var last = rows.last, let first = rows.first, rows.count > 1 else { return rows }
        func growth(_ side: KeyPath<ResultRow, SideResult?>) -> Double {
            let perRequest = { (row: ResultRow) in
                (row[keyPath: side]?.medianWallSeconds ?? .nan) / Double(row.requests ?? 1)
            }
            return perRequest(last) / perRequest(first)
        }
        let growth = ResultRow.Growth(
            fromRequests: totals.first ?? 0, toRequests: totals.last ?? 0, endpointKit: growth(\.endpointKit),
            baseline: growth(\.baseline))
        last.growth = growth
        let chunkDrift = lastChunks.map {
            "; EndpointKit's last chunk vs its first: x" + Format.fixed($0.last / $0.first, 2)
        }
        last.note =
            "cost per request \(growth.fromRequests) -> \(growth.toRequests) req: EndpointKit x"
            + Format.fixed(growth.endpointKit, 2)
            + ", URLSession x" + Format.fixed(growth.baseline, 2) + (chunkDrift ?? "")
            + "; transfers still registered after the runs: \(leftOver)"
        rows[rows.count - 1] = last
        return rows
    }
}
