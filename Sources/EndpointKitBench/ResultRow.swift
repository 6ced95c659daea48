/// One line of the result table: EndpointKit against its baseline in one scenario.
struct ResultRow: Encodable {
    /// Whether the row holds measurements.
    enum Status: String, Encodable {
        /// Measured.
        case measured
        /// The feature the scenario needs does not exist yet.
        case notBuilt = "not-built"
        /// The measurement failed; ``ResultRow/note`` says why.
        case failed
    }

    /// How per-request cost changed across the request counts of scenario 6.
    struct Growth: Encodable {
        let fromRequests: Int
        let toRequests: Int
        /// EndpointKit's cost per request at `toRequests` over that at `fromRequests`.
        let endpointKit: Double
        /// The baseline's cost per request at `toRequests` over that at `fromRequests`.
        let baseline: Double
    }

    /// The scenario number from the issue (1 to 6).
    let scenario: Int
    /// The scenario name used by `--scenario`.
    let name: String
    /// What was measured.
    let label: String
    let status: Status
    /// The largest acceptable ratio, if the issue sets one.
    var maximumRatio: Double?
    /// The target as the issue states it, for the table.
    var targetText: String
    /// Requests per run, for network scenarios.
    var requests: Int?
    var endpointKit: SideResult?
    var baseline: SideResult?
    /// Other contenders measured in the same rounds (curl, JSONSerialization).
    var references: [SideResult] = []
    /// Per-request cost growth (scenario 6).
    var growth: Growth?
    /// Anything the reader needs to interpret the row.
    var note: String?

    /// EndpointKit's median wall time over the baseline's.
    var ratio: Double? {
        guard let endpointKit, let baseline else { return nil }
        return endpointKit.medianWallSeconds / baseline.medianWallSeconds
    }

    /// EndpointKit's median CPU time over the baseline's: steadier than wall time on a busy machine.
    var cpuRatio: Double? {
        guard let endpointKit, let baseline else { return nil }
        return endpointKit.medianCPUSeconds / baseline.medianCPUSeconds
    }

    /// Whether the ratio is within the target; `nil` without a target or a ratio.
    var meetsTarget: Bool? {
        guard let ratio, let maximumRatio else { return nil }
        return ratio <= maximumRatio
    }

    /// A measured row from interleaved sides: the first is EndpointKit, the second the baseline,
    /// the rest references.
    static func measured(
        _ scenario: any Scenario, label: String, maximumRatio: Double?, requests: Int?, sides: [SideResult]
    ) -> ResultRow {
        ResultRow(
            scenario: scenario.number, name: scenario.name, label: label, status: .measured,
            maximumRatio: maximumRatio, targetText: maximumRatio.map { "<= " + Format.fixed($0, 2) } ?? "-",
            requests: requests,
            endpointKit: sides.first, baseline: sides.dropFirst().first, references: Array(sides.dropFirst(2)))
    }

    /// A row saying why a scenario has no numbers.
    static func unmeasured(_ scenario: any Scenario, status: Status, note: String) -> ResultRow {
        ResultRow(
            scenario: scenario.number, name: scenario.name, label: scenario.summary, status: status,
            targetText: scenario.targetText, note: note)
    }

    private enum CodingKeys: String, CodingKey {
        case scenario, name, label, status, maximumRatio, targetText, requests, endpointKit, baseline, references
        case growth, note, ratio, cpuRatio, meetsTarget
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(name, forKey: .name)
        try container.encode(label, forKey: .label)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(maximumRatio, forKey: .maximumRatio)
        try container.encode(targetText, forKey: .targetText)
        try container.encodeIfPresent(requests, forKey: .requests)
        try container.encodeIfPresent(endpointKit, forKey: .endpointKit)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encode(references, forKey: .references)
        try container.encodeIfPresent(growth, forKey: .growth)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encodeIfPresent(cpuRatio, forKey: .cpuRatio)
        try container.encodeIfPresent(meetsTarget, forKey: .meetsTarget)
    }
}
