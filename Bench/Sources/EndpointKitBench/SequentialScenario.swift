/// Scenario 1: sequential `GET` + decode of a small JSON model.
struct SequentialScenario: Scenario {
    let number = 1
    let name = "sequential"
    let summary = "sequential GET + decode of a small JSON model"
    let targetText = "<= 1.03"
    let needsServer = true

    func run(in context: BenchContext) async throws -> [ResultRow] {
        let count = context.options.sequentialRequests
        let comparison = try NetworkComparison(context: context, count: count, width: nil)
        let sides = try await context.measure(comparison.contenders, rounds: context.options.measuredRounds)
        let label = "sequential GET + decode, \(count) req"
        return [
            .measured(self, label: label, maximumRatio: 1.03, requests: count, sides: sides),
            LibcurlRow.make(self, label: label, speedupTarget: 3.5, requests: count, sides: sides),
        ].compactMap { $0 }
    }
}
