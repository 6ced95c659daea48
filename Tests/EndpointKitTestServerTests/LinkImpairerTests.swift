import Foundation
import XCTest

@testable import EndpointKitTestServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The link impairer on its own, with raw sockets: bytes cross intact however they are delayed,
/// split and paced; faults land where the seed puts them; resets, stalls and half-open
/// connections look to each end as they would on a real link; stopping leaves nothing behind.
final class LinkImpairerTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    /// A bad but fault-free link on a compressed clock: 10-20 ms a way, 2 MB/s, 1000-byte pieces.
    private let slowLink = LinkProfile(
        name: "test",
        upload: LinkDirection(latency: 0.01, jitter: 0.01, bytesPerSecond: 2_000_000, maximumPieceSize: 1000),
        download: LinkDirection(latency: 0.01, jitter: 0.01, bytesPerSecond: 2_000_000, maximumPieceSize: 1000))

    private func get(_ path: String, through impairer: LinkImpairer) throws -> RawClient {
        let client = try RawClient(port: impairer.port, receiveTimeout: 10)
        client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        return client
    }

    func testThatBytesCrossIntactInBothDirectionsThroughLatencyJitterPacingAndSmallPieces() throws {
        // GIVEN a slow link in front of the server
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: slowLink, seed: 3)
        defer { impairer.stop() }

        // WHEN 300 kB go down and 200 kB go up on one connection
        let client = try get("/bytes/300000", through: impairer)
        let download = client.readResponse()
        let upload = Array(TestServer.patternBytes(count: 200_000))
        client.send("POST /sink HTTP/1.1\r\nHost: x\r\nContent-Length: \(upload.count)\r\n\r\n")
        client.send(upload)
        let receipt = client.readResponse()

        // THEN both arrive whole and in order
        XCTAssertEqual(download?.status, 200)
        let expected = Array(TestServer.patternBytes(count: 300_000))
        XCTAssertTrue(download?.body == expected, "\(download?.body.count ?? -1) B")
        XCTAssertEqual(receipt.map { String(decoding: $0.body, as: UTF8.self) }, #"{"pattern":true,"received":200000}"#)
        // A pump counts what it forwarded just after the write, so the server may answer before the
        // count is in: close the connection and let both pumps end before reading the statistics.
        _ = shutdown(client.fd, Int32(SHUT_WR))
        XCTAssertTrue(impairer.waitForOpenConnections(atMost: 0, timeout: 10))
        let statistics = impairer.statistics
        XCTAssertEqual(statistics.connections, 1)
        XCTAssertGreaterThan(statistics.bytesDownloaded, 300_000)
        XCTAssertGreaterThan(statistics.bytesUploaded, 200_000)
        XCTAssertEqual(statistics.resets + statistics.stalls + statistics.halfOpens, 0)
    }

    func testThatTheFaultsFallWhereTheSeedPutsThem() throws {
        // GIVEN links that reset about every 64 KiB
        var profile = slowLink
        profile.resetsPerMebibyte = 16
        func bytesCarriedUntilTheReset(seed: UInt64) throws -> Int {
            let impairer = try LinkImpairer(upstreamPort: server.port, profile: profile, seed: seed)
            defer { impairer.stop() }
            let client = try get("/bytes/4000000", through: impairer)
            let ending = client.readUntilEndOrError()
            XCTAssertEqual(ending.error, ECONNRESET, "the client sees a reset")
            XCTAssertTrue(impairer.waitForOpenConnections(atMost: 0, timeout: 10))
            let statistics = impairer.statistics
            XCTAssertEqual(statistics.resets, 1)
            return statistics.bytesUploaded + statistics.bytesDownloaded
        }

        // WHEN the same download runs twice with one seed, and once with another
        let first = try bytesCarriedUntilTheReset(seed: 11)
        let again = try bytesCarriedUntilTheReset(seed: 11)
        let other = try bytesCarriedUntilTheReset(seed: 12)

        // THEN the same seed resets at the same byte, another seed elsewhere
        XCTAssertEqual(first, again)
        XCTAssertNotEqual(first, other)
        XCTAssertLessThan(first, 4_000_000)
    }

    func testThatAResetReachesBothEndsAsAReset() throws {
        // GIVEN a request the server holds open
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: slowLink)
        defer { impairer.stop() }
        let client = try get("/fault/stall", through: impairer)
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 10))

        // WHEN the impairer resets the connection
        impairer.resetConnections()

        // THEN the client gets an RST and the server's side closes too
        XCTAssertEqual(client.readUntilEndOrError().error, ECONNRESET)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        XCTAssertTrue(impairer.waitForOpenConnections(atMost: 0, timeout: 10))
        XCTAssertEqual(impairer.statistics.resets, 1)
    }

    func testThatAStallDelaysTheBytesAndLosesNone() throws {
        // GIVEN a download paced at 2 MB/s
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: slowLink)
        defer { impairer.stop() }
        let client = try get("/bytes/400000", through: impairer)
        while impairer.statistics.bytesDownloaded == 0 { usleep(1000) }

        // WHEN the link stalls in the middle of it
        impairer.stallConnections(for: 0.3)

        // THEN it completes intact
        let body = client.readResponse()?.body
        XCTAssertTrue(body == Array(TestServer.patternBytes(count: 400_000)), "\(body?.count ?? -1) B")
        XCTAssertEqual(impairer.statistics.stalls, 1)
    }

    func testThatAHalfOpenConnectionStaysOpenAtBothEndsUntilOneCloses() throws {
        // GIVEN a request in flight
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: slowLink)
        defer { impairer.stop() }
        var client: RawClient? = try RawClient(port: impairer.port, receiveTimeout: 0.3)
        client?.send("GET /fault/stall HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 10))

        // WHEN the link goes half-open
        impairer.halfOpenConnections()

        // THEN nothing arrives and nothing closes, until the client gives up and closes its end;
        // then the impairer lets go of both
        var byte: UInt8 = 0
        XCTAssertEqual(client.map { recv($0.fd, &byte, 1, 0) }, -1, "nothing arrives, not even an end of stream")
        XCTAssertEqual(server.openConnectionCount, 1)
        XCTAssertEqual(impairer.statistics.openConnections, 1)
        client = nil
        XCTAssertTrue(impairer.waitForOpenConnections(atMost: 0, timeout: 10))
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        XCTAssertEqual(impairer.statistics.halfOpens, 1)
    }

    func testThatAServerThatRefusesReachesTheClientAsAReset() throws {
        // GIVEN an impairer in front of a port nobody listens on any more
        let gone = try TestServer()
        let port = gone.port
        gone.stop()
        let impairer = try LinkImpairer(upstreamPort: port, profile: slowLink)
        defer { impairer.stop() }

        // WHEN a client connects through it
        let client = try RawClient(port: impairer.port, receiveTimeout: 10)

        // THEN the connection it accepted is reset at once
        XCTAssertEqual(client.readUntilEndOrError().error, ECONNRESET)
        XCTAssertEqual(impairer.statistics.refusedByServer, 1)
    }

    func testThatStopEndsEveryConnectionAndThreadAndRefusesNewOnes() throws {
        // GIVEN two connections in flight
        let impairer = try LinkImpairer(upstreamPort: server.port, profile: slowLink)
        let clients = try (0..<2).map { _ in try get("/fault/stall", through: impairer) }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 2, timeout: 10))

        // WHEN it stops
        impairer.stop()

        // THEN both were reset, its threads are gone and its port refuses
        for client in clients { XCTAssertEqual(client.readUntilEndOrError().error, ECONNRESET) }
        XCTAssertEqual(impairer.liveThreadCount, 0)
        XCTAssertEqual(impairer.statistics.openConnections, 0)
        XCTAssertThrowsError(try RawClient(port: impairer.port))
    }

    func testThatTheNamedProfilesAreFoundByNameAndScale() throws {
        XCTAssertEqual(LinkProfile.named("slow-mobile"), .slowMobile)
        XCTAssertEqual(LinkProfile.named("perfect"), .perfect)
        XCTAssertNil(LinkProfile.named("dial-up"))
        XCTAssertEqual(Set(LinkProfile.named.map(\.name)).count, LinkProfile.named.count)
        let fast = LinkProfile.slowMobile.scaled(by: 0.1)
        XCTAssertEqual(fast.download.latency, 0.015, accuracy: 1e-9)
        XCTAssertEqual(fast.download.bytesPerSecond, 500_000)
        XCTAssertEqual(fast.resetsPerMebibyte, LinkProfile.slowMobile.resetsPerMebibyte)
        let faulty = LinkProfile.flakyWiFi.withFaults(scaledBy: 4)
        XCTAssertEqual([faulty.resetsPerMebibyte, faulty.stallsPerMebibyte, faulty.halfOpensPerMebibyte], [1, 8, 0.4])
        XCTAssertEqual(faulty.download, LinkProfile.flakyWiFi.download)
        XCTAssertTrue(LinkProfile.flakyWiFi.description.contains("stalls/MiB"), LinkProfile.flakyWiFi.description)
    }
}
