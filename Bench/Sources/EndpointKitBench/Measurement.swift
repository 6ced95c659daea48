import BenchTestServer

/// One side of a comparison: what it is called and how to run it once.
struct Contender {
    /// The name shown in the report ("EndpointKit", "URLSession + JSONDecoder", "curl").
    let name: String
    /// Whether the run happens in this process, so its peak RSS means something.
    var inProcess = true
    /// Runs once, unmeasured, before the rounds; `nil` for no warm-up.
    var warmUp: (() async throws -> Void)?
    /// Runs once. Returns the CPU seconds when they were measured elsewhere (a child process),
    /// `nil` to use this process's CPU time.
    let run: () async throws -> Double?
    /// Runs after each measured run, outside the measurement (deleting a downloaded file); `nil`
    /// for nothing.
    var afterRun: (() throws -> Void)?

    init(
        name: String, inProcess: Bool = true, warmUp: (() async throws -> Void)? = nil,
        afterRun: (() throws -> Void)? = nil, run: @escaping () async throws -> Double?
    ) {
        self.name = name
        self.inProcess = inProcess
        self.warmUp = warmUp
        self.afterRun = afterRun
        self.run = run
    }
}

/// One measured run.
struct Sample: Encodable {
    /// Wall-clock seconds.
    var wallSeconds: Double
    /// CPU seconds of the client (this process, or the child process that was measured).
    var cpuSeconds: Double
    /// Peak resident set size during the run, KiB; `nil` when not measured.
    var peakRSSKiB: Int?
    /// Resident set size when the run started (after the peak was reset), KiB; `nil` when not
    /// measured.
    var startRSSKiB: Int?

    /// How far the resident set grew above its size at the start, KiB.
    var peakGrowthKiB: Int? {
        guard let peakRSSKiB, let startRSSKiB else { return nil }
        return max(0, peakRSSKiB - startRSSKiB)
    }
}

/// The runs of one contender and their medians.
struct SideResult: Encodable {
    /// The contender's name.
    let name: String
    /// Every measured run, in order.
    let samples: [Sample]
    /// The median latency of single requests over every run, for scenarios that time each
    /// request (scenario 5); `nil` otherwise.
    var medianRequestSeconds: Double?

    /// The median wall-clock seconds.
    var medianWallSeconds: Double { Self.median(samples.map(\.wallSeconds)) }
    /// The median CPU seconds.
    var medianCPUSeconds: Double { Self.median(samples.map(\.cpuSeconds)) }
    /// The largest peak RSS of any run, KiB.
    var peakRSSKiB: Int? { samples.compactMap(\.peakRSSKiB).max() }
    /// The largest growth of the RSS above its size at the start of a run, KiB.
    var peakGrowthKiB: Int? { samples.compactMap(\.peakGrowthKiB).max() }

    private enum CodingKeys: String, CodingKey {
        case name, samples, medianWallSeconds, medianCPUSeconds, peakRSSKiB, peakGrowthKiB, medianRequestSeconds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(samples, forKey: .samples)
        try container.encode(medianWallSeconds, forKey: .medianWallSeconds)
        try container.encode(medianCPUSeconds, forKey: .medianCPUSeconds)
        try container.encodeIfPresent(peakRSSKiB, forKey: .peakRSSKiB)
        try container.encodeIfPresent(peakGrowthKiB, forKey: .peakGrowthKiB)
        try container.encodeIfPresent(medianRequestSeconds, forKey: .medianRequestSeconds)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Runs contenders in turn, A B A B ..., so that drift in the machine's load hits every side alike.
enum Interleaved {
    /// Warms every contender up once, then runs `rounds` rounds of one run each. Contenders for
    /// which `includes` is false are skipped and get no samples (to profile one side alone).
    static func measure(
        _ contenders: [Contender], rounds: Int, includes: (Int) -> Bool = { _ in true }
    ) async throws -> [SideResult] {
        for (index, contender) in contenders.enumerated() where includes(index) {
            try await contender.warmUp?()
        }
        var samples = Array(repeating: [Sample](), count: contenders.count)
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() where includes(index) {
                samples[index].append(try await measureOnce(contender))
            }
        }
        return zip(contenders, samples).map { SideResult(name: $0.name, samples: $1) }
    }

    private static func measureOnce(_ contender: Contender) async throws -> Sample {
        var startRSS: Int?
        if contender.inProcess {
            ProcessMemory.resetPeak()
            startRSS = ProcessMemory.currentKiB()
        }
        let stopwatch = Stopwatch()
        let childCPU = try await contender.run()
        let wall = stopwatch.wallSeconds
        let cpu = childCPU ?? stopwatch.cpuSeconds
        let sample = Sample(
            wallSeconds: wall, cpuSeconds: cpu, peakRSSKiB: contender.inProcess ? ProcessMemory.peakKiB() : nil,
            startRSSKiB: startRSS)
        try contender.afterRun?()
        return sample
    }
}
