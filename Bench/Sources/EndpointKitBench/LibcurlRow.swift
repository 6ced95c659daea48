/// The libcurl reading of scenarios 1 and 2 (the transport issue's targets): EndpointKit on
/// `CurlTransport` against the same URLSession baseline and the `curl` command, from the same
/// interleaved rounds as the scenario's own row.
enum LibcurlRow {
    /// The contender: the client on `CurlTransport`, used as a user would.
    static let endpointKitName = "EndpointKit+libcurl"
    /// The same client with the request loop under `withTaskExecutorPreference(transport.executor)`.
    static let executorName = "EndpointKit+libcurl, on its executor"
    /// libcurl from Swift without EndpointKit (``BareCurlClient``).
    static let bareName = "bare libcurl from Swift"
    /// The longest time against the `curl` command the transport issue allows.
    static let curlTarget = 1.3

    /// A row with ``endpointKitName`` against the baseline, `curl` and ``executorName`` as
    /// references; `nil` when libcurl was not measured (not Linux).
    /// - Parameter speedupTarget: The throughput over URLSession the issue asks for, if any.
    static func make(
        _ scenario: any Scenario, label: String, speedupTarget: Double?, requests: Int, sides: [SideResult]
    ) -> ResultRow? {
        guard let libcurl = sides.first(where: { $0.name == endpointKitName }), sides.count > 1 else { return nil }
        let baseline = sides[1]
        let others = sides.dropFirst(2).filter { $0.name != endpointKitName && !$0.name.hasPrefix("URLSession") }
        var row = ResultRow.measured(
            scenario, label: label + ", on CurlTransport", maximumRatio: speedupTarget.map { 1 / $0 },
            targetText: speedupTarget.map { "<= \(Format.fixed(1 / $0, 2)) (\(Format.fixed($0, 1))x)" },
            requests: requests, sides: [libcurl, baseline] + others)
        var parts = ["\(label): \(endpointKitName) \(speedup(libcurl, baseline)) URLSession's throughput"]
        if let curl = others.first(where: { $0.name == "curl" }) {
            let versusCurl = libcurl.medianWallSeconds / curl.medianWallSeconds
            parts.append(
                "\(Format.fixed(versusCurl, 2))x the curl command's time (target <= \(Format.fixed(curlTarget, 1)), "
                    + (versusCurl <= curlTarget ? "ok" : "MISS") + ")")
        }
        if let executor = others.first(where: { $0.name == executorName }) {
            parts.append("on its executor \(speedup(executor, baseline))")
        }
        if let bare = others.first(where: { $0.name == bareName }) {
            parts.append("\(bareName) (no EndpointKit) \(speedup(bare, baseline))")
        }
        row.note = parts.joined(separator: "; ")
        return row
    }

    /// "2.40x": how many times the baseline's throughput `side` reached.
    private static func speedup(_ side: SideResult, _ baseline: SideResult) -> String {
        Format.fixed(baseline.medianWallSeconds / side.medianWallSeconds, 2) + "x"
    }
}
