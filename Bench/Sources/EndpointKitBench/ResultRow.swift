/// One line of the result table: EndpointKit against its baseline in one scenario.
struct ResultRow: Encodable {
    /// Whether the row holds measurements.
    enum Status: String, Encodable {
        /// Measured.
        case measured
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

    /// The scenario number: 1 to 6 from the issue, then the bench's own (7, the client core).
    let scenario: Int
    /// The scenario name used by `--scenario`.
    let name: String
    /// What was measured.
    let label: String
    let status: Status
    /// The largest acceptable ratio, if the issue sets one.
    var maximumRatio: Double?
    /// The limit on the growth of EndpointKit's peak RSS during a run, bytes (scenario 4).
    var maximumGrowthBytes: Int?
    /// The limit on EndpointKit's median latency per request, seconds (scenario 5).
    var maximumLatencySeconds: Double?
    /// The target as the issue states it, for the table.
    var targetText: String
    /// Requests per run, for network scenarios.
    var requests: Int?
    /// Bytes moved per run, for transfer scenarios.
    var bytes: Int?
    var endpointKit: SideResult?
    var baseline: SideResult?
    /// Other contenders measured in the same rounds (curl, JSONSerialization).
    var references: [SideResult] = []
    /// Per-request cost growth (scenario 6).
    var growth: Growth?
    /// Time per request of each side and EndpointKit's overhead (scenario 7); the table then
    /// shows every side's time per request.
    var perRequest: PerRequest?
    /// Anything the reader needs to interpret the row.
    var note: String?

    /// EndpointKit's median wall time over the baseline's (of single requests, where both sides
    /// timed each request).
    var ratio: Double? {
        guard let endpointKit, let baseline else { return nil }
        if let hit = endpointKit.medianRequestSeconds, let network = baseline.medianRequestSeconds {
            return hit / network
        }
        return endpointKit.medianWallSeconds / baseline.medianWallSeconds
    }

    /// EndpointKit's median CPU time over the baseline's: steadier than wall time on a busy machine.
    var cpuRatio: Double? {
        guard let endpointKit, let baseline else { return nil }
        return endpointKit.medianCPUSeconds / baseline.medianCPUSeconds
    }

    /// Whether EndpointKit is within the target (ratio, RSS growth or latency); `nil` without a
    /// target or the figure it is about.
    var meetsTarget: Bool? {
        if let maximumRatio {
            return ratio.map { $0 <= maximumRatio }
        }
        if let maximumGrowthBytes {
            return endpointKit?.peakGrowthKiB.map { $0 * 1024 < maximumGrowthBytes }
        }
        if let maximumLatencySeconds {
            return endpointKit?.medianRequestSeconds.map { $0 < maximumLatencySeconds }
        }
        return nil
    }

    /// A measured row from interleaved sides: the first is EndpointKit, the second the baseline,
    /// the rest references.
    /// `targetText` defaults to `<= maximumRatio`, or `-` without one.
    static func measured(
        _ scenario: any Scenario, label: String, maximumRatio: Double?, targetText: String? = nil, requests: Int?,
        sides: [SideResult]
    ) -> ResultRow {
        ResultRow(
            scenario: scenario.number, name: scenario.name, label: label, status: .measured,
            maximumRatio: maximumRatio,
            targetText: targetText ?? maximumRatio.map { "<= " + Format.fixed($0, 2) } ?? "-",
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
        case scenario, name, label, status, maximumRatio, maximumGrowthBytes, maximumLatencySeconds, targetText
        case requests, bytes, endpointKit, baseline, references
        case growth, perRequest, note, ratio, cpuRatio, meetsTarget
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(name, forKey: .name)
        try container.encode(label, forKey: .label)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(maximumRatio, forKey: .maximumRatio)
        try container.encodeIfPresent(maximumGrowthBytes, forKey: .maximumGrowthBytes)
        try container.encodeIfPresent(maximumLatencySeconds, forKey: .maximumLatencySeconds)
        try container.encode(targetText, forKey: .targetText)
        try container.encodeIfPresent(requests, forKey: .requests)
        try container.encodeIfPresent(bytes, forKey: .bytes)
        try container.encodeIfPresent(endpointKit, forKey: .endpointKit)
        try container.encodeIfPresent(baseline, forKey: .baseline)
        try container.encode(references, forKey: .references)
        try container.encodeIfPresent(growth, forKey: .growth)
        try container.encodeIfPresent(perRequest, forKey: .perRequest)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(ratio, forKey: .ratio)
        try container.encodeIfPresent(cpuRatio, forKey: .cpuRatio)
        try container.encodeIfPresent(meetsTarget, forKey: .meetsTarget)
    }
}
