@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Transfers through a ``LinkImpairer``, once per transport: a resumable download through random
/// resets ends byte-identical; an upload through resets fails cleanly when its method is not
/// retried and succeeds when it is; a transfer that keeps moving at the link's pace outlives its
/// idle timeout, and a stall longer than it ends with the idle limit.
///
/// The links run on a compressed clock (a few milliseconds of latency, megabytes a second), and
/// every wait is generous next to them: no test depends on the machine being fast. The long
/// versions are `endpointkit-bench --impaired-transfers` (see Docs/Reliability.md).
final class ImpairedTransferTests: TransportTestCase {
    struct Download: DownloadRequest {
        var path: RequestPath
        var destination: DownloadDestination
        var retrier: (any RequestRetrier)? {
            RetryPolicy(maxRetries: 50, baseDelay: 0.01, maximumDelay: 0.05, jitter: 0)
        }
        var totalTimeout: TimeInterval? { 0 }
        var idleTimeout: TimeInterval? { idle }
        var idle: TimeInterval = 20
    }

    struct Receipt: Decodable, Sendable {
        let pattern: Bool
        let received: Int
    }

    struct Upload: APIRequest {
        typealias Response = Receipt
        var method: HTTPMethod
        var body: Data
        var policy: RetryPolicy
        var path: RequestPath { "/sink" }
        var parameters: RequestParameters {
            .data(body, contentType: "application/octet-stream")
        }
        var idle: TimeInterval = 20
        var retrier: (any RequestRetrier)? { policy }
        var totalTimeout: TimeInterval? { 0 }
        var idleTimeout: TimeInterval? { idle }
    }

    private var impairer: LinkImpairer!
    private var folder: URL!

    /// Runs `body` once per transport with a client whose every byte crosses `profile`.
    private func throughImpairedLink(_ profile: LinkProfile, seed: UInt64 = 21, _ body: () throws -> Void) throws {
        try forEachTransport {
            impairer = try LinkImpairer(upstreamPort: server.port, profile: profile, seed: seed)
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-impaired-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer {
                impairer.stop()
                try? FileManager.default.removeItem(at: folder)
            }
            client = makeClient {
                $0.baseURL = self.impairer.baseURL
                $0.partialDownloadsDirectory = self.folder.appendingPathComponent("partials")
            }
            try body()
            assertNothingLeftBehind()
        }
    }

    /// Nothing stays registered in the client or the transport, and no connection stays open.
    private func assertNothingLeftBehind() {
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline, !client.inFlightRequests.isEmpty || activeTransfers > 0 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(client.inFlightRequests.count, 0)
        XCTAssertEqual(activeTransfers, 0)
    }

    private var activeTransfers: Int {
        #if os(Linux)
        if let curl = transport as? CurlTransport { return curl.activeTransferCount }
        #endif
        return (transport as? URLSessionTransport)?.activeTransferCount ?? 0
    }

    /// Sends `request`, and once the link has carried `bytes` more (down, or up if `uploaded`),
    /// does `fault` to it.
    /// - Returns: every completion, after waiting (bounded) for the first.
    private func send<Request: APIRequest>(
        _ request: Request, faultAfter bytes: Int, uploaded: Bool = false, _ fault: () -> Void
    ) -> [APIResult<Request.Response>] {
        let impairer = impairer!
        func carried() -> Int {
            uploaded ? impairer.statistics.bytesUploaded : impairer.statistics.bytesDownloaded
        }
        var start = carried()
        let requestsBefore = server.requestCount
        let done = expectation(description: "completion")
        let results = ResultBox<Request.Response>()
        client.send(request) { result in
            results.append(result)
            done.fulfill()
        }
        let deadline = Date(timeIntervalSinceNow: 30)
        if !uploaded {
            // Count the bytes of this response only: wait until the request reached the server, so
            // that bytes of the previous exchange the link counts late cannot set the fault off
            // before this request is on the wire (seen under TSan: the reset then hit an idle
            // connection, and the request went out whole on a new one).
            while server.requestCount == requestsBefore, Date() < deadline, results.results.isEmpty { usleep(1000) }
            start = carried()
        }
        while carried() < start + bytes, Date() < deadline, results.results.isEmpty { usleep(1000) }
        fault()
        wait(for: [done], timeout: 60)
        return results.results
    }

    /// A fast link on a compressed clock (2 ms a way plus jitter, 1,400-byte pieces, 20 MB/s down).
    private static func fastLink(resetsPerMebibyte: Double) -> LinkProfile {
        LinkProfile(
            name: "test", upload: LinkDirection(latency: 0.002, jitter: 0.002, maximumPieceSize: 1400),
            download: LinkDirection(latency: 0.002, jitter: 0.002, bytesPerSecond: 20_000_000),
            resetsPerMebibyte: resetsPerMebibyte)
    }

    func testThatAResumableDownloadThroughRandomResetsEndsByteIdentical() throws {
        // GIVEN a link that resets a connection every 1.5 MiB on average
        try throughImpairedLink(Self.fastLink(resetsPerMebibyte: 0.7)) {
            let size = 6_000_000
            let target = folder.appendingPathComponent("download.bin")

            // WHEN a resumable download of 6 MB goes through it, retried after each reset
            let result = sendAndWait(Download(path: "/resumable/\(size)", destination: .file(target)), timeout: 120)

            // THEN it completes once, resumed with Range, and the file is the resource
            XCTAssertEqual(result?.value, target, "\(String(describing: result))")
            XCTAssertEqual(try? Data(contentsOf: target), TestServer.patternBytes(count: size))
            XCTAssertGreaterThan(impairer.statistics.resets, 0, "the link reset the download at least once")
            XCTAssertGreaterThan(server.requestCount, 1, "sent again after a reset")
            XCTAssertLessThan(impairer.statistics.bytesDownloaded, size * 3 / 2, "resumed, not restarted")
        }
    }

    func testThatAnUploadThroughAResetFailsCleanlyWhenItsMethodIsNotRetried() throws {
        // GIVEN a link that resets every 128 KiB on average
        try throughImpairedLink(Self.fastLink(resetsPerMebibyte: 8)) {
            let body = TestServer.patternBytes(count: 2_000_000)

            // WHEN a 2 MB POST crosses it, with a policy that would retry a PUT
            let result = sendAndWait(Upload(method: .post, body: body, policy: RetryPolicy(maxRetries: 5)), timeout: 60)

            // THEN it fails once with a lost connection, and was not sent again
            XCTAssertEqual(result?.transportReason, .connectionLost, "\(String(describing: result))")
            XCTAssertEqual(impairer.statistics.connections, 1, "a POST is not retried")
            XCTAssertGreaterThan(impairer.statistics.resets, 0)
        }
    }

    func testThatAnUploadThroughResetsIsRetriedWhenItsMethodAndPolicyAllow() throws {
        // GIVEN a link that resets every 2 MiB on average
        try throughImpairedLink(Self.fastLink(resetsPerMebibyte: 0.5), seed: 5) {
            let body = TestServer.patternBytes(count: 1_500_000)

            // WHEN a 1.5 MB PUT crosses it with a policy that retries lost connections
            let policy = RetryPolicy(maxRetries: 50, baseDelay: 0.01, maximumDelay: 0.05, jitter: 0)
            let result = sendAndWait(Upload(method: .put, body: body, policy: policy), timeout: 120)

            // THEN one attempt gets through whole, and the result is its receipt
            XCTAssertEqual(result?.value?.received, body.count, "\(String(describing: result))")
            XCTAssertEqual(result?.value?.pattern, true)
            XCTAssertGreaterThan(impairer.statistics.resets, 0, "seed 5 resets the first attempt")
            XCTAssertEqual(impairer.statistics.connections, impairer.statistics.resets + 1)
        }
    }

    /// What happens below the client, pinned so that a change shows (Docs/Reliability.md,
    /// "Findings"): libcurl sends a request again on a new connection when a reused one dies before
    /// the response, a `POST` too; URLSession on Linux then cannot rewind the body, and the request
    /// ends at its idle limit.
    func testThatAnUploadOnAReusedConnectionResetMidBodyIsSentAgainBelowTheClient() throws {
        // GIVEN a connection that served a request, on a link with a 2 MB/s upload
        let link = LinkProfile(name: "upload", upload: LinkDirection(bytesPerSecond: 2_000_000))
        try throughImpairedLink(link) {
            XCTAssertNotNil(sendAndWait(Echo(path: "/echo"), timeout: 30)?.value)

            // WHEN a 2 MB POST, never retried by the client, is reset on it after 500 kB
            let body = TestServer.patternBytes(count: 2_000_000)
            let upload = Upload(method: .post, body: body, policy: .none, idle: 2)
            let results = send(upload, faultAfter: 500_000, uploaded: true) { impairer.resetConnections() }

            // THEN it completes once, after libcurl opened a second connection for it
            XCTAssertEqual(results.count, 1)
            XCTAssertEqual(impairer.statistics.connections, 2, "sent again on a new connection")
            if kind.name == TransportKind.urlSession.name {
                // FoundationNetworking has no body to send again: the server waits, the idle limit ends it.
                guard case .transportError(let error)? = results.first else { return XCTFail("\(results)") }
                XCTAssertEqual(error.timeoutLimit, .idle, error.message)
            } else {
                XCTAssertEqual(results.first?.value?.received, body.count, "\(results)")
            }
        }
    }

    func testThatADownloadMovingAtTheLinksPaceOutlivesItsIdleTimeout() throws {
        // GIVEN a link of 100 kB/s
        let slow = LinkProfile(
            name: "slow", upload: LinkDirection(latency: 0.01),
            download: LinkDirection(latency: 0.01, jitter: 0.01, bytesPerSecond: 100_000, maximumPieceSize: 1400))
        try throughImpairedLink(slow) {
            // WHEN a download of 250 kB (2.5 s at that pace) runs with a 1 s idle limit and no deadline
            let target = folder.appendingPathComponent("slow.bin")
            let request = Download(path: "/resumable/250000", destination: .file(target), idle: 1)
            let result = sendAndWait(request, timeout: 60)

            // THEN it completes: bytes kept arriving, however long it took
            XCTAssertEqual(result?.value, target, "\(String(describing: result))")
            XCTAssertEqual(try? Data(contentsOf: target), TestServer.patternBytes(count: 250_000))
            XCTAssertEqual(server.requestCount, 1)
        }
    }

    func testThatAStallLongerThanTheIdleTimeoutEndsWithTheIdleLimit() throws {
        // GIVEN a download under way at 100 kB/s with a 1 s idle limit
        let slow = LinkProfile(name: "slow", download: LinkDirection(bytesPerSecond: 100_000, maximumPieceSize: 1400))
        try throughImpairedLink(slow) {
            let target = folder.appendingPathComponent("stalled.bin")
            let request = Download(path: "/resumable/2000000", destination: .file(target), idle: 1)

            // WHEN the link stalls for 5 s after 20 kB
            let results = send(NoRetry(download: request), faultAfter: 20_000) { impairer.stallConnections(for: 5) }

            // THEN the download ends once, timed out by the idle limit, and says so
            XCTAssertEqual(results.count, 1)
            guard case .transportError(let error)? = results.first else { return XCTFail("\(results)") }
            XCTAssertEqual(error.reason, .timedOut, error.message)
            XCTAssertEqual(error.timeoutLimit, .idle, error.message)
            XCTAssertTrue(error.message.contains("idle"), error.message)
        }
    }

    struct Echo: APIRequest {
        typealias Response = JSONValue
        var path: RequestPath
        var query = QueryItems()
        var parameters: RequestParameters { .query(query) }
        var retrier: (any RequestRetrier)? { RetryPolicy.none }
        var totalTimeout: TimeInterval? { 0 }
        var idleTimeout: TimeInterval? { 1 }
    }

    func testThatFaultsKeepTheirClassificationThroughASlowMobileLink() throws {
        try throughImpairedLink(LinkProfile.slowMobile.scaled(by: 0.1)) {
            // An answer crosses the link.
            XCTAssertNotNil(sendAndWait(Echo(path: "/echo"), timeout: 30)?.value)

            // A reset in the middle of a response is a lost connection. (Before the first byte of
            // the response, on a reused connection, libcurl sends the request again on a new one.)
            var drip = Echo(path: "/fault/drip")
            drip.query.append("chunks", QueryValue(100))
            drip.query.append("delay", QueryValue(50))
            let resets = send(drip, faultAfter: 200) { impairer.resetConnections() }
            XCTAssertEqual(resets.map(\.transportReason), [.connectionLost], "\(resets)")

            // A link that goes silent (half-open) once the request crossed it is a timeout of the
            // idle limit.
            let silences = send(Echo(path: "/delay/3000"), faultAfter: 50, uploaded: true) {
                impairer.halfOpenConnections()
            }
            XCTAssertEqual(silences.count, 1)
            guard case .transportError(let error)? = silences.first else { return XCTFail("\(silences)") }
            XCTAssertEqual(error.timeoutLimit, .idle, error.message)

            // A port that refuses (the impairer stopped) cannot be connected to.
            impairer.stop()
            XCTAssertEqual(sendAndWait(Echo(path: "/echo"), timeout: 30)?.transportReason, .cannotConnect)
        }
    }

    /// A download that is never retried.
    struct NoRetry: DownloadRequest {
        var download: Download
        var path: RequestPath { download.path }
        var destination: DownloadDestination { download.destination }
        var retrier: (any RequestRetrier)? { RetryPolicy.none }
        var totalTimeout: TimeInterval? { 0 }
        var idleTimeout: TimeInterval? { download.idle }
    }
}
