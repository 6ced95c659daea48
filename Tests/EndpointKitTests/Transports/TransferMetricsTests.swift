import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ResponseMetadata.metrics` over real HTTP on loopback, once per transport: plausible order,
/// connection reuse over keep-alive, bytes, redirects, and what the logger and plugins see.
/// Never a timing assertion: only the order of the marks, which holds on any machine.
final class TransferMetricsTests: TransportTestCase {
    private var isCurl: Bool { kind.name == "CurlTransport" }

    /// Asserts that the known marks of `metrics` never go back in time.
    private func assertOrdered(_ metrics: TransferMetrics, file: StaticString = #filePath, line: UInt = #line) {
        let marks = [
            metrics.domainLookupEnd, metrics.connectEnd, metrics.secureConnectionEnd, metrics.responseStart,
            metrics.responseEnd,
        ].compactMap { $0 }
        XCTAssertEqual(marks, marks.sorted(), "\(metrics)", file: file, line: line)
        XCTAssertTrue(marks.allSatisfy { $0 >= 0 }, "\(metrics)", file: file, line: line)
    }

    func testThatANewConnectionReportsItsPhasesInOrderAndAReusedOneSaysSo() throws {
        try forEachTransport {
            server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
            let first = try XCTUnwrap(sendAndWait(GetItem())?.metadata?.metrics)
            let second = try XCTUnwrap(sendAndWait(GetItem())?.metadata?.metrics)
            assertOrdered(first)
            assertOrdered(second)
            XCTAssertNotNil(first.responseStart, "\(first)")
            XCTAssertNotNil(first.responseEnd, "\(first)")
            XCTAssertEqual(first.redirectCount, 0)
            guard isCurl else {
                #if canImport(FoundationNetworking)
                // URLSession on Linux delivers no task metrics: only the transport's own clock.
                let known = TransferMetrics(
                    responseStart: first.responseStart, responseEnd: first.responseEnd, redirectCount: 0)
                XCTAssertEqual(first, known, "fields URLSession on Linux cannot know are nil")
                #endif
                return
            }
            // The server saw one connection; the metrics say the second request reused it.
            XCTAssertEqual(server.connectionCount, 1)
            XCTAssertEqual(first.isReusedConnection, false, "\(first)")
            XCTAssertEqual(second.isReusedConnection, true, "\(second)")
            for value in [first.domainLookupEnd, first.connectEnd] { XCTAssertNotNil(value, "\(first)") }
            XCTAssertNil(first.secureConnectionEnd, "plain http has no handshake: \(first)")
            XCTAssertNil(second.domainLookupEnd, "a reused connection has no lookup: \(second)")
            XCTAssertNil(second.connectEnd, "\(second)")
            for metrics in [first, second] {
                XCTAssertEqual(metrics.httpVersion, "HTTP/1.1")
                XCTAssertEqual(metrics.remoteAddress, "127.0.0.1")
                XCTAssertEqual(metrics.remotePort, Int(server.port))
            }
        }
    }

    func testThatBodyBytesAreCountedBothWaysAsTheyCrossedTheConnection() throws {
        try forEachTransport {
            let reply = String(repeating: "r", count: 20_000)
            server.route("/echo") { _ in .text(reply) }
            // {"id":7,"name":"zipped"}, gzip-compressed: 44 bytes on the wire, 24 decoded.
            let gzipped = Data(base64Encoded: "H4sIAAAAAAACA6tWykxRsjLXUcpLzE1VslKqyiwoSE1RqgUASKRdjBgAAAA=") ?? Data()
            server.route("/item") { _ in
                .response(
                    status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                    body: gzipped)
            }
            struct Upload: APIRequest {
                typealias Response = String
                var method: HTTPMethod { .post }
                var path: RequestPath { "/echo" }
                var parameters: RequestParameters {
                    .data(Data(repeating: 0x62, count: 5_000), contentType: "text/plain")
                }
            }
            let upload = try XCTUnwrap(sendAndWait(Upload())?.metadata)
            XCTAssertEqual(upload.data.count, 20_000)
            let zipped = try XCTUnwrap(sendAndWait(GetItem()))
            XCTAssertEqual(zipped.value, Item(id: 7, name: "zipped"))
            guard isCurl else { return XCTAssertNil(upload.metrics?.requestBodyBytesSent) }
            XCTAssertEqual(upload.metrics?.requestBodyBytesSent, 5_000)
            XCTAssertEqual(upload.metrics?.responseBodyBytesReceived, 20_000)
            XCTAssertEqual(zipped.metadata?.metrics?.requestBodyBytesSent, 0)
            XCTAssertEqual(zipped.metadata?.metrics?.responseBodyBytesReceived, Int64(gzipped.count))
        }
    }

    func testThatARedirectedResponseCarriesTheLastExchangeAndTheRedirectCount() throws {
        try forEachTransport {
            server.route("/old") { _ in .redirect(to: "/item") }
            server.route("/item") { _ in .json(["id": 2, "name": "b"]) }
            let metrics = try XCTUnwrap(sendAndWait(GetItem(path: "/old"))?.metadata?.metrics)
            XCTAssertEqual(metrics.redirectCount, 1, "\(metrics)")
            assertOrdered(metrics)
            if isCurl { XCTAssertEqual(metrics.isReusedConnection, true, "the redirect went over the same connection") }
        }
    }

    func testThatTheLoggerPrintsMetricsAtDebugAndAPluginCollectsThemPerAttempt() throws {
        final class Collector: APIPlugin, @unchecked Sendable {
            let attempts = Locked<[TransferMetrics]>([])
            func didReceive(
                _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext
            ) {
                if case .success(let response) = outcome, let metrics = response.metrics {
                    attempts.withLock { $0.append(metrics) }
                }
            }
        }
        try forEachTransport {
            server.route("/item") { _ in .json(["id": 3, "name": "c"]) }
            let lines = Locked<[String]>([])
            let collector = Collector()
            let client = makeClient {
                $0.plugins = [
                    LoggerPlugin(level: .debug, sink: { line in lines.withLock { $0.append(line) } }), collector,
                ]
            }
            let metadata = try XCTUnwrap(sendAndWait(GetItem(), client: client)?.metadata)
            XCTAssertEqual(collector.attempts.value, metadata.metrics.map { [$0] })
            let received = lines.value.first { $0.hasPrefix("←") } ?? ""
            XCTAssertTrue(received.contains("\n  metrics: "), received)
            XCTAssertTrue(received.contains("total "), received)
            if isCurl {
                XCTAssertTrue(received.contains("HTTP/1.1 127.0.0.1:\(server.port), new connection"), received)
            }
        }
    }

    func testThatACachedResponseHasNoMetricsAndARevalidatedOneHasThoseOfThe304() throws {
        try forEachTransport {
            server.route("/item") { request in
                request.header("If-None-Match") == "\"v1\""
                    ? .response(status: 304, headers: [("ETag", "\"v1\"")], body: Data())
                    : .json(["id": 4, "name": "d"], headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=3600")])
            }
            struct Cached: APIRequest {
                typealias Response = Item
                var mode: CachePolicy.Mode
                var path: RequestPath { "/item" }
                var cachePolicy: CachePolicy? { CachePolicy(mode: mode) }
            }
            let client = makeClient { $0.cache = ResponseCache(directory: nil) }
            XCTAssertNotNil(sendAndWait(Cached(mode: .useCache), client: client)?.metadata?.metrics)
            let hit = try XCTUnwrap(sendAndWait(Cached(mode: .useCache), client: client)?.metadata)
            XCTAssertNotEqual(hit.source, .network)
            XCTAssertNil(hit.metrics)
            let revalidated = try XCTUnwrap(sendAndWait(Cached(mode: .useCacheRevalidating), client: client)?.metadata)
            XCTAssertEqual(revalidated.source, .revalidated)
            XCTAssertNotNil(revalidated.metrics?.responseEnd)
        }
    }
}

#if os(Linux)
/// ``TransferMetrics`` over TLS on loopback (``TLSFixture``): the handshake's mark, in order,
/// on a new connection only.
final class TLSTransferMetricsTests: XCTestCase {
    func testThatAnHTTPSExchangeReportsItsHandshakeBetweenConnectAndFirstByte() throws {
        let fixture = try TLSFixture.get()
        let transport = try CurlTransport(
            serverTrustPolicy: .customRoots([TLSCertificate(data: fixture.file("ca.pem"))]))
        let url = fixture.url(.leaf)
        let first = try XCTUnwrap(XCTUnwrap(fixture.fetch(url, through: transport)).get().metrics)
        let second = try XCTUnwrap(XCTUnwrap(fixture.fetch(url, through: transport)).get().metrics)
        let marks = try [first.connectEnd, first.secureConnectionEnd, first.responseStart, first.responseEnd].map {
            try XCTUnwrap($0, "\(first)")
        }
        XCTAssertEqual(marks, marks.sorted(), "\(first)")
        XCTAssertLessThan(marks[0], marks[1], "the handshake takes round trips after the connect: \(first)")
        XCTAssertEqual(first.isReusedConnection, false, "\(first)")
        XCTAssertEqual(second.isReusedConnection, true, "\(second)")
        XCTAssertNil(second.secureConnectionEnd, "a reused connection has no handshake: \(second)")
        XCTAssertEqual(first.remotePort, url.port)
        XCTAssertTrue(first.description.contains(", TLS "), first.description)
    }
}
#endif
