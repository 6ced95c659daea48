import Dispatch
import EndpointKit
import Foundation

/// Scenario 3: a ~5 MB `statusResult` envelope of 20,000 objects, in process (no network).
///
/// EndpointKit goes through the whole client (`client.value(for:)` with the envelope, on a
/// transport that answers at once); the baseline is a bare `JSONDecoder` of the same bytes into a
/// hand-written envelope struct; `JSONSerialization` + manual mapping is the reference.
struct DecodeScenario: Scenario {
    let number = 3
    let name = "decode"
    let summary = "envelope + model decoding of a 5 MB payload"
    let targetText = "<= 1.10"
    let needsServer = false

    func run(in context: BenchContext) async throws -> [ResultRow] {
        let objects = context.options.decodeObjects
        let payload = Payloads.itemPage(count: objects)
        var configuration = APIClient.Configuration(
            baseURL: URL(string: "http://bench.invalid"), transport: CannedTransport(body: payload))
        configuration.envelope = .statusResult()
        let client = APIClient(configuration: configuration)
        let decoder = JSONDecoder()

        func check(_ count: Int, _ who: String) throws(BenchError) {
            guard count == objects else { throw .requestFailed("\(who) decoded \(count) of \(objects) objects") }
        }
        let contenders = [
            Contender(name: "EndpointKit") {
                try check(try await client.value(for: GetItemPage()).count, "EndpointKit")
                return nil
            },
            Contender(name: "JSONDecoder") {
                let envelope = try decoder.decode(ItemPageEnvelope.self, from: payload)
                guard envelope.status == 200 else { throw BenchError.requestFailed("status \(envelope.status)") }
                try check(envelope.result.count, "JSONDecoder")
                return nil
            },
            Contender(name: "JSONSerialization+mapping") {
                try check(try ManualMapping.items(from: payload).count, "JSONSerialization")
                return nil
            },
        ]
        let sides = try await context.measure(contenders, rounds: context.options.measuredRounds)
        let megabytes = String(format: "%.1f", Double(payload.count) / 1_000_000)
        return [
            .measured(
                self, label: "envelope + \(objects) objects (\(megabytes) MB), in process", maximumRatio: 1.10,
                requests: nil, sides: sides)
        ]
    }
}
