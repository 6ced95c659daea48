import EndpointKit
import EndpointKitStreaming
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Scenario 8 (the bench's own): streamed responses. Time to the first event of a
/// Server-Sent Events stream, throughput of a byte stream (MB/s) and of an event stream
/// (events/s), and the memory of a reader slower than the network (target: the client's RSS grows
/// less than 64 MB while it reads 1 GiB slowly: the transfer pauses instead of piling up).
///
/// EndpointKit streams `StreamingRequest`s on the default transport (`CurlTransport` on Linux);
/// the baseline is a hand-written URLSession delegate stream (``URLSessionStreamBaseline``);
/// EndpointKit on `URLSessionTransport` is a reference for the first three rows.
struct StreamingScenario: Scenario {
    let number = 8
    let name = "stream"
    let summary = "streamed responses: first event, MB/s, events/s, a slow reader's RSS"
    let targetText = "-"
    let needsServer = true

    /// How long the slow reader pauses after each MiB, in seconds (at most 250 MB/s).
    static let slowReaderPause: TimeInterval = 0.004

    func run(in context: BenchContext) async throws -> [ResultRow] {
        let baseURL = try context.baseURL()
        let options = context.options
        let library = Self.endpointKit(baseURL: baseURL, transport: nil)
        let onURLSession = Self.endpointKit(
            baseURL: baseURL, transport: URLSessionTransport(configuration: BenchClients.sessionConfiguration()))
        let baseline = URLSessionStreamBaseline(baseURL: baseURL, configuration: BenchClients.sessionConfiguration())
        let sides = ["EndpointKit", "URLSession delegate stream", "EndpointKit+URLSession"]

        // 1. Time to the first event: open, read one event, cancel; `opens` times per run.
        let opens = options.requests(options.quick ? 20 : 100)
        let latencies = sides.map { _ in LatencyLog() }
        func firstEvents(_ index: Int, _ open: @escaping @Sendable () async throws -> Void) -> Contender {
            Contender(
                name: sides[index], warmUp: { try await open() },
                run: {
                    try await latencies[index].timeEach(opens, open)
                    return nil
                })
        }
        context.progress("  first event, \(opens) opens per run")
        var firstSides = try await context.measure(
            [
                firstEvents(0) { try await Self.firstEvent(library) },
                firstEvents(1) {
                    var seen = 0
                    try await baseline.events(StreamRoutes.first) { _ in
                        seen += 1
                        return false
                    }
                    guard seen == 1 else { throw BenchError.requestFailed("URLSession stream: no first event") }
                },
                firstEvents(2) { try await Self.firstEvent(onURLSession) },
            ], rounds: options.measuredRounds)
        for index in firstSides.indices { firstSides[index].medianRequestSeconds = latencies[index].median }
        let first = ResultRow.measured(
            self, label: "SSE: open and read the first event", maximumRatio: nil, requests: opens, sides: firstSides)

        // 2. Bytes as fast as they come.
        let mebibytes = min(options.transferSizeMiB, 256)
        let bytes = mebibytes << 20
        func readBytes(_ client: APIClient) -> () async throws -> Double? {
            {
                try Self.expect(try await Self.read(BenchBytes(bytes: bytes), on: client), bytes, "EndpointKit")
                return nil
            }
        }
        let readBaseline: () async throws -> Double? = {
            try Self.expect(try await Self.read(baseline, bytes: bytes), bytes, "URLSession stream")
            return nil
        }
        context.progress("  \(mebibytes) MiB as chunks")
        let throughputSides = try await context.measure(
            zip(sides, [readBytes(library), readBaseline, readBytes(onURLSession)]).map {
                Contender(name: $0, run: $1)
            },
            rounds: options.measuredRounds)
        var throughput = ResultRow.measured(
            self, label: "\(mebibytes) MiB streamed as chunks", maximumRatio: nil, requests: nil,
            sides: throughputSides)
        throughput.bytes = bytes

        // 3. Events as fast as they come.
        let count = options.requests(options.quick ? 20_000 : 200_000)
        func readEvents(_ client: APIClient) -> () async throws -> Double? {
            {
                var seen = 0
                for try await event in client.stream(BenchEvents(count: count)) where !event.data.isEmpty { seen += 1 }
                try Self.expect(seen, count, "EndpointKit events")
                return nil
            }
        }
        let eventsBaseline: () async throws -> Double? = {
            var seen = 0
            try await baseline.events(StreamRoutes.events, query: [URLQueryItem(name: "count", value: "\(count)")]) {
                if !$0.isEmpty { seen += 1 }
                return true
            }
            try Self.expect(seen, count, "URLSession events")
            return nil
        }
        context.progress("  \(count) events")
        let eventSides = try await context.measure(
            zip(sides, [readEvents(library), eventsBaseline, readEvents(onURLSession)]).map {
                Contender(name: $0, run: $1)
            }, rounds: options.measuredRounds)
        var events = ResultRow.measured(
            self, label: "\(count) SSE events (~100 B)", maximumRatio: nil, requests: count, sides: eventSides)
        events.note =
            "events/s: "
            + eventSides.map { "\($0.name) \(Format.fixed(Double(count) / $0.medianWallSeconds, 0))" }
            .joined(separator: ", ")

        return [first, throughput, events, try await slowReader(context, library: library, baseline: baseline)]
    }

    /// 4. A reader slower than the network, over the transfer size (1 GiB by default).
    private func slowReader(
        _ context: BenchContext, library: APIClient, baseline: URLSessionStreamBaseline
    ) async throws -> ResultRow {
        let mebibytes = context.options.transferSizeMiB
        let bytes = mebibytes << 20
        let pause = UInt64(Self.slowReaderPause * 1e9)
        context.progress("  \(mebibytes) MiB read slowly, \(context.options.transferRounds) rounds")
        let sides = try await context.measure(
            [
                Contender(
                    name: "EndpointKit",
                    run: {
                        try Self.expect(
                            try await Self.read(BenchBytes(bytes: bytes), on: library, pause: pause), bytes,
                            "EndpointKit slow reader")
                        return nil
                    }),
                Contender(
                    name: "URLSession delegate stream",
                    run: {
                        try Self.expect(
                            try await Self.read(baseline, bytes: bytes, pause: pause), bytes, "URLSession slow reader")
                        return nil
                    }),
            ], rounds: context.options.transferRounds)
        let size = mebibytes == 1024 ? "1 GiB" : "\(mebibytes) MiB"
        var row = ResultRow.measured(
            self, label: "\(size) read slowly (\(Format.milliseconds(Self.slowReaderPause)) per MiB)",
            maximumRatio: nil, targetText: "< 64 MB", requests: nil, sides: sides)
        row.bytes = bytes
        row.maximumGrowthBytes = TransferScenario.maximumGrowthBytes
        row.note =
            "the reader pauses \(Format.milliseconds(Self.slowReaderPause)) after each MiB. EndpointKit's stream "
            + "holds 1 MiB and pauses the transfer when it is full; the URLSession stream keeps what arrives "
            + "(URLSession on Linux cannot pause a task). Growth = peak RSS - RSS at the run's start."
            + (mebibytes == 1024 ? "" : " Reduced size (--quick or --transfer-mb): the issue's is 1 GiB.")
        return row
    }

    // MARK: - Sides

    private static func endpointKit(baseURL: URL, transport: (any Transport)?) -> APIClient {
        var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
        configuration.timeouts.total = TransferClients.timeout
        return APIClient(configuration: configuration)
    }

    private static func firstEvent(_ client: APIClient) async throws {
        for try await event in client.stream(FirstEvent()) where !event.data.isEmpty { return }
        throw BenchError.requestFailed("EndpointKit: the stream ended before its first event")
    }

    /// Reads a byte stream, pausing `pause` nanoseconds after each MiB; returns the bytes read.
    private static func read(_ request: BenchBytes, on client: APIClient, pause: UInt64 = 0) async throws -> Int {
        try await count(client.stream(request), pause: pause)
    }

    private static func read(_ baseline: URLSessionStreamBaseline, bytes: Int, pause: UInt64 = 0) async throws -> Int {
        try await count(
            baseline.chunks("download", query: [URLQueryItem(name: "bytes", value: "\(bytes)")]), pause: pause)
    }

    private static func count<Chunks: AsyncSequence>(_ chunks: Chunks, pause: UInt64) async throws -> Int
    where Chunks.Element == Data {
        var total = 0
        var sincePause = 0
        for try await chunk in chunks {
            total += chunk.count
            sincePause += chunk.count
            if pause > 0, sincePause >= 1 << 20 {
                sincePause -= 1 << 20
                try await Task.sleep(nanoseconds: pause)
            }
        }
        return total
    }

    private static func expect(_ got: Int, _ expected: Int, _ who: String) throws(BenchError) {
        guard got == expected else { throw .requestFailed("\(who): \(got) of \(expected)") }
    }
}

/// `GET /stream/first`: one event, then silence.
struct FirstEvent: StreamingRequest {
    var path: RequestPath { "/stream/first" }
    var reconnection: StreamReconnection { .never }
    var format: StreamFormat<ServerSentEvent> { .serverSentEvents }
}

/// `GET /stream/events?count=N`.
struct BenchEvents: StreamingRequest {
    let count: Int
    var path: RequestPath { "/stream/events" }
    var parameters: RequestParameters { .query(["count": QueryValue(count)]) }
    var reconnection: StreamReconnection { .never }
    var format: StreamFormat<ServerSentEvent> { .serverSentEvents }
}

/// `GET /download?bytes=N` as a stream of chunks.
struct BenchBytes: StreamingRequest {
    let bytes: Int
    var path: RequestPath { "/download" }
    var parameters: RequestParameters { .query(["bytes": QueryValue(bytes)]) }
    var format: StreamFormat<Data> { .chunks }
}
