import Dispatch
import EndpointKit
import Foundation

/// `GET /model` with a ten-minute cache lifetime: scenario 5's request, as a user would declare it.
struct GetCachedUserModel: APIRequest {
    typealias Response = UserModel
    var path: RequestPath { "/model" }
    var cachePolicy: CachePolicy? { CachePolicy(lifetime: 600) }
}

/// Scenario 5: a cache hit against a network round trip of the same request (target: a hit in
/// less than 50 us).
///
/// Every side sends `GetCachedUserModel` through the whole client (`client.send`, decoding
/// included) one request after the other and times each request; the row shows the median
/// single-request latency over all rounds. EndpointKit is a client with a memory cache (every
/// measured answer must say `source == .cache`); the baseline is a client without a cache (every
/// answer `.network`); a client whose cache has no memory tier (`memoryCapacity: 0`, a folder in
/// the temporary directory) gives the disk-tier row, and URLSession + JSONDecoder is the network
/// reference.
struct CacheScenario: Scenario {
    let number = 5
    let name = "cache"
    let summary = "cache hit vs network round trip"
    let targetText = "hit < 50 us"
    let needsServer = true

    /// The target for a hit: 50 us.
    static let maximumHitSeconds = 50e-6

    func run(in context: BenchContext) async throws -> [ResultRow] {
        let baseURL = try context.baseURL()
        let count = context.options.cacheRequests
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-bench-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let memory = BenchClients.endpointKit(baseURL: baseURL, cache: ResponseCache(directory: nil))
        let network = BenchClients.endpointKit(baseURL: baseURL)
        let disk = BenchClients.endpointKit(
            baseURL: baseURL, cache: ResponseCache(directory: folder, memoryCapacity: 0))
        let baseline = BenchClients.baseline(baseURL: baseURL)

        let cached: @Sendable (APIClient) async throws -> Void = { client in
            let result = await client.send(GetCachedUserModel())
            guard case .cache = result.metadata?.source, try result.get().id == 42 else {
                throw BenchError.requestFailed("expected a cache hit, got \(result)")
            }
        }
        let logs = (0..<4).map { _ in LatencyLog() }
        let sides: [(name: String, request: @Sendable () async throws -> Void)] = [
            ("EndpointKit cache hit (memory)", { try await cached(memory) }),
            (
                "EndpointKit, cache off",
                {
                    let result = await network.send(GetCachedUserModel())
                    guard result.metadata?.source == .network, try result.get().id == 42 else {
                        throw BenchError.requestFailed("expected a network answer, got \(result)")
                    }
                }
            ),
            ("EndpointKit cache hit (disk)", { try await cached(disk) }),
            (
                "URLSession+JSONDecoder",
                {
                    guard try await baseline.user().id == 42 else { throw BenchError.requestFailed("bad user") }
                }
            ),
        ]
        // The first send of each cached client stores the entry.
        for client in [memory, disk] {
            let first = await client.send(GetCachedUserModel())
            guard first.metadata?.source == .network, first.isSuccess else {
                throw BenchError.requestFailed("the first send was not a network answer: \(first)")
            }
        }
        let warmup = context.options.warmupRequests
        let contenders = zip(sides, logs).map { side, log in
            Contender(
                name: side.name, warmUp: { try await RequestLoop.sequential(warmup, side.request) },
                run: {
                    try await log.timeEach(count, side.request)
                    return nil
                })
        }
        var results = try await context.measure(contenders, rounds: context.options.measuredRounds)
        for index in results.indices { results[index].medianRequestSeconds = logs[index].median }

        var memoryRow = ResultRow.measured(
            self, label: "cache hit (memory tier) vs network round trip, \(count) req", maximumRatio: nil,
            targetText: targetText, requests: count, sides: [results[0], results[1], results[3]])
        memoryRow.maximumLatencySeconds = Self.maximumHitSeconds
        let diskRow = ResultRow.measured(
            self, label: "cache hit (disk tier, memory capacity 0) vs network, \(count) req", maximumRatio: nil,
            targetText: "-", requests: count, sides: [results[2], results[1]])
        return [memoryRow, diskRow]
    }
}

/// The latencies of single requests, collected over every run of one side.
final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: [Double] = []

    /// Awaits `count` calls of `request` one after the other, timing each.
    func timeEach(_ count: Int, _ request: @Sendable () async throws -> Void) async throws {
        var times: [Double] = []
        times.reserveCapacity(count)
        for _ in 0..<count {
            let start = DispatchTime.now().uptimeNanoseconds
            try await request()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        lock.withLock { seconds += times }
    }

    /// The median latency, seconds; `nil` before any request.
    var median: Double? {
        let all = lock.withLock { seconds }
        return all.isEmpty ? nil : SideResult.median(all)
    }
}
