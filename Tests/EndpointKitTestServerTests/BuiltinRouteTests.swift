import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class BuiltinRouteTests: XCTestCase {
    func testStatusRoutes() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for code in [200, 201, 204, 400, 404, 418, 500, 503] {
            client.send("GET /status/\(code) HTTP/1.1\r\n\r\n")
            let response = client.readResponse()
            XCTAssertEqual(response?.status, code)
            XCTAssertEqual(response?.body, [])
        }
        client.send("GET /status/401 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.headers["www-authenticate"], "Basic realm=\"test\"")
        client.send("GET /status/307 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.headers["location"], "/echo")
        client.send("GET /status/99 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 400)
        client.send("GET /status/abc HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 400)
    }

    func testStatusThroughURLSession() throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = makeSession()
        XCTAssertEqual(fetch(server.url("/status/503"), session: session).status, 503)
        XCTAssertEqual(fetch(server.url("/status/204"), session: session).status, 204)
        XCTAssertEqual(fetch(server.url("/status/404"), session: session).status, 404)
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testBytesPlainAndChunked() throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = makeSession()
        let plain = fetch(server.url("/bytes/1000"), session: session)
        XCTAssertEqual(plain.response?.value(forHTTPHeaderField: "Content-Type"), "application/octet-stream")
        XCTAssertEqual(plain.data, TestServer.patternBytes(count: 1000))
        for count in [0, 1, 255, 256, 257, 70_001] {
            let pattern = TestServer.patternBytes(count: count)
            XCTAssertEqual(pattern.count, count)
            XCTAssertTrue(pattern.enumerated().allSatisfy { $0.element == UInt8($0.offset % 256) }, "\(count)")
        }

        let chunked = fetch(server.url("/bytes/100000?chunk=4096"), session: session)
        XCTAssertEqual(chunked.data, TestServer.patternBytes(count: 100_000))

        let client = try RawClient(port: server.port)
        client.send("GET /bytes/10?chunk=3 HTTP/1.1\r\n\r\n")
        let raw = client.readResponse()
        XCTAssertEqual(raw?.headers["transfer-encoding"], "chunked")
        XCTAssertEqual(raw?.body, Array(0..<10))
        XCTAssertEqual(fetch(server.url("/bytes/0"), session: session).data, Data())
        XCTAssertEqual(fetch(server.url("/bytes/-1"), session: session).status, 400)
    }

    func testJSONItems() throws {
        let server = try TestServer()
        defer { server.stop() }
        let result = fetch(server.url("/json/3"), session: makeSession())
        let items = try XCTUnwrap(try JSONSerialization.jsonObject(with: XCTUnwrap(result.data)) as? [[String: Any]])
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items[2]["id"] as? Int, 2)
        XCTAssertEqual(items[2]["name"] as? String, "item 2")
        XCTAssertEqual(items[2]["score"] as? Double, 3.0)
        XCTAssertEqual(items[1]["active"] as? Bool, false)
        XCTAssertEqual(items[0]["active"] as? Bool, true)
        XCTAssertEqual(fetch(server.url("/json/0"), session: makeSession()).text, "[]")
    }

    func testRedirectChainEndsAtEcho() throws {
        let server = try TestServer()
        defer { server.stop() }
        let result = fetch(server.url("/redirect/3"), session: makeSession())
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.response?.url?.path, "/echo")
        XCTAssertEqual(result.json["path"] as? String, "/echo")
        XCTAssertEqual(server.requestCount, 4)

        let client = try RawClient(port: server.port)
        client.send("GET /redirect/2 HTTP/1.1\r\n\r\n")
        let first = client.readResponse()
        XCTAssertEqual(first?.status, 302)
        XCTAssertEqual(first?.headers["location"], "/redirect/1")
    }

    func testDelayWaitsThenEchoes() throws {
        let server = try TestServer()
        defer { server.stop() }
        var result = FetchResult()
        let seconds = elapsed { result = fetch(server.url("/delay/300?x=1"), session: makeSession()) }
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.json["path"] as? String, "/delay/300")
        XCTAssertGreaterThanOrEqual(seconds, 0.29)
        XCTAssertLessThan(seconds, 20, "bounded")
    }

    func testDripSendsChunksOverTime() throws {
        let server = try TestServer()
        defer { server.stop() }
        var result = FetchResult()
        let seconds = elapsed { result = fetch(server.url("/fault/drip?chunks=4&delay=100"), session: makeSession()) }
        XCTAssertNil(result.error)
        XCTAssertEqual(result.text, "chunk 0\nchunk 1\nchunk 2\nchunk 3\n")
        XCTAssertGreaterThanOrEqual(seconds, 0.29)
        XCTAssertLessThan(seconds, 20, "bounded")
    }
}
