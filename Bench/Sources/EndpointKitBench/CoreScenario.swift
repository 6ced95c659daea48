import EndpointKit
import Foundation

/// `GET /core` with every member left at its default: the plainest request a user declares, its
/// body kept as raw `Data` (no decoding). Like every `GET` it shares identical transfers in
/// flight by default (``APIRequest/coalescesIdenticalRequests``); one after the other, nothing
/// is ever shared, so the scenario measures what that default costs a request that gains nothing.
struct GetCoreData: APIRequest {
    /// The raw body.
    typealias Response = Data
    /// `/core` (the canned transport answers any path).
    var path: RequestPath { "/core" }
}

/// ``GetCoreData`` with coalescing switched off: the reference that shows what the coalescing
/// stage, on by default for every `GET`, adds to the core.
struct GetCoreDataUnshared: APIRequest {
    /// The raw body.
    typealias Response = Data
    /// `/core`, as ``GetCoreData``.
    var path: RequestPath { "/core" }
    /// Never shares a transfer, so the client gives the send no coalescing stage.
    var coalescesIdenticalRequests: Bool? { false }
}

/// Scenario 7 (not in the issue): the client core alone. `APIClient` with nothing configured
/// sends a plain `GET` to a transport that answers inside `execute` (``CannedTransport``, a
/// 64-byte body), in a hot loop of `await client.value(for:)`, one request after the other; the
/// baseline does the least a caller of the same transport must (``CoreBaseline``). No network, no
/// decoding, no thread crossing: the difference per request is what EndpointKit's own request
/// path costs (building, registry, handle, stages, validation, delivery, the awaiting caller).
///
/// The row prints microseconds per request for each side and, in its note and the JSON's
/// `perRequest`, the core overhead: EndpointKit's time per request minus the baseline's.
struct CoreScenario: Scenario {
    /// After the six.
    let number = 7
    /// `--scenario core`.
    let name = "core"
    /// What the row measures when it has no numbers.
    let summary = "client core alone: plain GET on an in-process transport"
    /// The issue sets no target for the core alone.
    let targetText = "-"
    /// The transport answers in process.
    let needsServer = false

    /// The body every canned response carries: 64 bytes.
    static let body = Data(repeating: UInt8(ascii: "x"), count: 64)

    /// Runs the three sides interleaved and returns one row with their times per request.
    func run(in context: BenchContext) async throws -> [ResultRow] {
        let count = context.options.coreRequests
        let warmup = max(context.options.warmupRequests, count / 10)
        let transport = CannedTransport(body: Self.body)
        let baseURL = CoreBaseline.baseURL
        let client = APIClient(configuration: APIClient.Configuration(baseURL: baseURL, transport: transport))
        let baseline = CoreBaseline(transport: transport)

        /// Fails unless `data` is the canned body (every side must really have made the request).
        @Sendable func check(_ data: Data, _ who: String) throws(BenchError) {
            guard data.count == Self.body.count else {
                throw .requestFailed("\(who) got \(data.count) bytes, expected \(Self.body.count)")
            }
        }
        /// A contender that warms up with `warmup` calls of `request`, then makes `count` per run.
        func contender(_ name: String, _ request: @escaping @Sendable () async throws -> Void) -> Contender {
            Contender(
                name: name, warmUp: { try await RequestLoop.sequential(warmup, request) },
                run: {
                    try await RequestLoop.sequential(count, request)
                    return nil
                })
        }
        let contenders = [
            contender("EndpointKit") { try check(try await client.value(for: GetCoreData()), "EndpointKit") },
            contender(CoreBaseline.name) { try check(try await baseline.data(), CoreBaseline.name) },
            contender("EndpointKit, coalescing off") {
                try check(try await client.value(for: GetCoreDataUnshared()), "EndpointKit, coalescing off")
            },
        ]
        let sides = try await context.measure(contenders, rounds: context.options.measuredRounds)
        var row = ResultRow.measured(
            self, label: "client core: plain GET, Data (64 B), in-process transport, \(count) req",
            maximumRatio: nil, requests: count, sides: sides)
        let perRequest = ResultRow.PerRequest(sides: sides, requests: count)
        row.perRequest = perRequest
        row.note = perRequest.summary
        return [row]
    }
}
