/// Scenario 6: cost per request at 1k, 10k and 100k requests (16 in flight). It must stay flat:
/// nothing in the client may grow with the number of requests sent.
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
        for step in context.options.scaleSteps {
            context.progress("  \(step.requests) requests")
            let comparison = try NetworkComparison(
                context: context, count: step.requests, width: Self.width, delegateReference: false)
            let sides = try await context.measure(comparison.contenders, rounds: step.rounds)
            leftOver = max(leftOver, comparison.transport.activeTransferCount)
            rows.append(
                .measured(
                    self, label: "per request @ \(step.requests) req, \(Self.width) in flight", maximumRatio: nil,
                    requests: step.requests, sides: sides))
        }
        guard var last = rows.last, let first = rows.first, rows.count > 1 else { return rows }
        func growth(_ side: KeyPath<ResultRow, SideResult?>) -> Double {
            let perRequest = { (row: ResultRow) in
                (row[keyPath: side]?.medianWallSeconds ?? .nan) / Double(row.requests ?? 1)
            }
            return perRequest(last) / perRequest(first)
        }
        let growth = ResultRow.Growth(
            fromRequests: first.requests ?? 0, toRequests: last.requests ?? 0, endpointKit: growth(\.endpointKit),
            baseline: growth(\.baseline))
        last.growth = growth
        last.note =
            "cost per request \(growth.fromRequests) -> \(growth.toRequests) req: EndpointKit x"
            + Format.fixed(growth.endpointKit, 2) + ", URLSession x" + Format.fixed(growth.baseline, 2)
            + "; transfers still registered after the runs: \(leftOver)"
        rows[rows.count - 1] = last
        return rows
    }
}
