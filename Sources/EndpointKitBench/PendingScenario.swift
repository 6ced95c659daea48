/// A scenario whose feature does not exist yet: listed in the table as "n/a".
struct PendingScenario: Scenario {
    let number: Int
    let name: String
    let summary: String
    let targetText: String
    var needsServer: Bool { false }

    func run(in context: BenchContext) async throws -> [ResultRow] {
        [ResultRow.unmeasured(self, status: .notBuilt, note: "n/a (feature not built yet)")]
    }
}
