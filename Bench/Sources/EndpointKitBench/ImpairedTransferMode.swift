import BenchTestServer
import Dispatch
import EndpointKit
import Foundation

/// `endpointkit-bench --impaired-transfers`: large transfers through a ``LinkImpairer``, per
/// profile and transport, against the benchmark server in a child process.
///
/// 1. A resumable download (`GET /resumable/N`) retried after every lost connection: it must
///    complete once, byte-identical, resuming with `Range` rather than starting over.
/// 2. An upload of a quarter of that size as a `POST` (never retried): a clean success or a lost
///    connection, once.
/// 3. The same upload as a `PUT` with a retry policy: it must complete, whole.
///
/// Then nothing may stay registered in the client or the transport.
enum ImpairedTransferMode {
    private struct Resumable: DownloadRequest {
        let size: Int
        let file: URL
        var path: RequestPath { RequestPath(percentEncoded: "/resumable/\(size)") }
        var destination: DownloadDestination { .file(file, replacingExisting: true) }
        var retrier: (any RequestRetrier)? { ImpairedTransferMode.patientRetries }
    }

    private struct Receipt: Decodable, Sendable {
        let pattern: Bool
        let received: Int
    }

    private struct Upload: APIRequest {
        typealias Response = Receipt
        let method: HTTPMethod
        let body: Data
        var path: RequestPath { "/sink" }
        var parameters: RequestParameters {
            .data(body, contentType: "application/octet-stream")
        }
        var retrier: (any RequestRetrier)? { ImpairedTransferMode.patientRetries }
    }

    /// Retries after lost connections and timeouts, quickly, for as long as it takes (idempotent
    /// methods only, as by default).
    static let patientRetries = RetryPolicy(maxRetries: 1000, baseDelay: 0.05, maximumDelay: 1)
    /// The longest one transfer may take before it counts as never completed, in seconds.
    private static let limit: TimeInterval = 3600

    /// Runs every transfer of `options`; prints a summary per run.
    /// - Returns: the exit status: 1 if a transfer did not end as it must.
    static func run(_ options: BenchOptions) -> Int32 {
        let server: ServerProcess
        do {
            server = try ServerProcess()
        } catch {
            FileHandle.standardError.write(Data("endpointkit-bench --impaired-transfers: \(error)\n".utf8))
            return 1
        }
        defer { server.stop() }
        let seed = options.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let size = options.impairedTransferMiB << 20
        print(
            "endpointkit-bench --impaired-transfers --seed \(seed): \(options.impairedTransferMiB) MiB down, "
                + "\(Format.mebibytes(size / 4 / 1024)) MiB up")
        var passed = true
        for profile in options.transferLinks {
            for transport in options.soakTransports {
                do {
                    let lines = try transfers(through: profile, over: transport, size: size, seed: seed, server: server)
                    lines.forEach { print($0) }
                    passed = passed && !lines.contains { $0.contains("FAIL") }
                } catch {
                    print("\(profile.name) over \(transport.name): \(error)")
                    passed = false
                }
            }
        }
        return passed ? 0 : 1
    }

    /// The three transfers of one profile and transport.
    private static func transfers(
        through profile: LinkProfile, over kind: SoakTransport, size: Int, seed: UInt64, server: ServerProcess
    ) throws -> [String] {
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: profile, seed: seed)
        defer { impairer.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-impaired-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = try kind.make(connections: 4)
        var configuration = APIClient.Configuration(baseURL: impairer.baseURL, transport: transport)
        configuration.partialDownloadsDirectory = folder.appendingPathComponent("partials")
        let client = APIClient(configuration: configuration)
        var rows: [[String]] = []

        let file = folder.appendingPathComponent("download.bin")
        var before = impairer.statistics
        let download = send(Resumable(size: size, file: file), on: client)
        var link = SoakLink.difference(impairer.statistics, before)
        let intact = download.result?.value == file && isPattern(file, size: size)
        let resumed = link.bytesDownloaded < size + size / 2
        rows.append(
            row(
                "download", size, download, link, verdict: download.completions == 1 && intact && resumed,
                detail: intact ? "byte-identical" : "NOT the resource: \(describe(download.result))"))

        let body = TestServer.patternBytes(count: size / 4)
        before = impairer.statistics
        var run = send(Upload(method: .post, body: body), on: client)
        link = SoakLink.difference(impairer.statistics, before)
        let clean = run.result?.value.map { $0.pattern && $0.received == body.count } ?? isLostConnection(run.result)
        // FoundationNetworking cannot rewind a body that libcurl sends again after a reused
        // connection died: the upload then waits for its idle limit (Docs/Reliability.md).
        let known = kind == .urlSession && isIdleTimeout(run.result)
        rows.append(
            row(
                "POST upload", body.count, run, link,
                verdict: run.completions == 1 && (clean || known) && link.connections <= 1,
                detail: known ? "timed out (idle): URLSession on Linux, see Docs/Reliability.md" : describe(run.result))
        )

        before = impairer.statistics
        run = send(Upload(method: .put, body: body), on: client)
        link = SoakLink.difference(impairer.statistics, before)
        let whole = run.result?.value.map { $0.pattern && $0.received == body.count } ?? false
        rows.append(
            row(
                "PUT upload", body.count, run, link, verdict: run.completions == 1 && whole,
                detail: describe(run.result)))

        let left = (client.inFlightRequests.count, SoakTransport.activeTransfers(of: transport) ?? 0)
        rows.append(["registry", "\(left.0) requests, \(left.1) transfers", left == (0, 0) ? "PASS" : "FAIL"])
        return ["\(profile.description), over \(kind.name)"] + Format.columns(rows).map { "  " + $0 }
    }

    private struct Run<Value: Sendable> {
        var result: APIResult<Value>?
        var completions: Int
        var seconds: Double
    }

    /// Sends `request` and waits (at most ``limit``) for its completion, counting completions.
    private static func send<Request: APIRequest>(_ request: Request, on client: APIClient) -> Run<Request.Response> {
        let results = Completions<Request.Response>()
        let done = DispatchSemaphore(value: 0)
        let stopwatch = Stopwatch()
        // Not on the main actor: this thread waits on the semaphore.
        client.send(request, on: DispatchQueue(label: "EndpointKitBench.impaired.callbacks")) { result in
            results.append(result)
            done.signal()
        }
        _ = done.wait(timeout: .now() + limit)
        let seconds = stopwatch.wallSeconds
        Thread.sleep(forTimeInterval: 0.2)  // room for a second completion to show up
        let all = results.all
        return Run(result: all.first, completions: all.count, seconds: seconds)
    }

    private static func row<Value>(
        _ name: String, _ bytes: Int, _ run: Run<Value>, _ link: LinkImpairer.Statistics, verdict: Bool, detail: String
    ) -> [String] {
        [
            name,
            "\(Format.mebibytes(bytes / 1024)) MiB in \(Format.fixed(run.seconds, 1)) s "
                + "(\(Format.fixed(Double(bytes) / max(run.seconds, 1e-9) / 1_048_576, 2)) MiB/s), "
                + "\(link.connections) new connections, \(link.resets) resets, \(link.stalls) stalls; "
                + "\(Format.mebibytes((link.bytesDownloaded + link.bytesUploaded) / 1024)) MiB carried; "
                + "\(run.completions) completion(s); \(detail)",
            verdict ? "PASS" : "FAIL",
        ]
    }

    private static func isLostConnection<Value>(_ result: APIResult<Value>?) -> Bool {
        if case .transportError(let error)? = result { return error.reason == .connectionLost }
        return false
    }

    private static func isIdleTimeout<Value>(_ result: APIResult<Value>?) -> Bool {
        if case .transportError(let error)? = result { return error.timeoutLimit == .idle }
        return false
    }

    private static func describe<Value>(_ result: APIResult<Value>?) -> String {
        switch result {
        case nil: return "never completed"
        case .success?: return "success"
        case .serverFailure(let failure)?: return "server failure \(failure.statusCode)"
        case .transportError(let error)?: return "\(error.reason)"
        }
    }

    /// Whether `file` holds exactly `size` pattern bytes (``TestServer/patternBytes(count:)``),
    /// read a MiB at a time.
    private static func isPattern(_ file: URL, size: Int) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return false }
        defer { try? handle.close() }
        let period = TestServer.patternBytes(count: 1 << 20)
        var offset = 0
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            guard chunk == period.prefix(chunk.count) else { return false }
            offset += chunk.count
        }
        return offset == size
    }
}

/// The completions of one request, from any thread.
private final class Completions<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `results` holds `lock`.
    private let lock = NSLock()
    private var results: [APIResult<Value>] = []

    func append(_ result: APIResult<Value>) { lock.withLock { results.append(result) } }
    var all: [APIResult<Value>] { lock.withLock { results } }
}
