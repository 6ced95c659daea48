/// One scenario of the issue: measures EndpointKit against a baseline and returns table rows.
protocol Scenario: Sendable {
    /// The number in the issue (1 to 6), or after them for scenarios the bench adds (7); rows are
    /// printed in this order.
    var number: Int { get }
    /// The name `--scenario` accepts.
    var name: String { get }
    /// What the scenario measures, for rows without numbers.
    var summary: String { get }
    /// The target as the issue states it.
    var targetText: String { get }
    /// Whether it talks to the benchmark server.
    var needsServer: Bool { get }

    /// Measures; the rows it returns are printed in order.
    func run(in context: BenchContext) async throws -> [ResultRow]
}

/// Every scenario of the issue, then the bench's own, in order.
enum ScenarioCatalog {
    static let all: [any Scenario] = [
        SequentialScenario(),
        ConcurrentScenario(),
        DecodeScenario(),
        TransferScenario(),
        CacheScenario(),
        ScaleScenario(),
        CoreScenario(),
        StreamingScenario(),
    ]

    /// The names `--scenario` accepts, in order.
    static var names: [String] { all.map(\.name) }

    /// Whether `--scenario` accepts `name` (a name or a number).
    static func isKnown(_ name: String) -> Bool {
        all.contains { $0.name == name || String($0.number) == name }
    }
}
