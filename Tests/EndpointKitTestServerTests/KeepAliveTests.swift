import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class KeepAliveTests: XCTestCase {
    func testSequentialURLSessionRequestsReuseOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = makeSession()
        for index in 0..<20 {
            let result = fetch(server.url("/echo?i=\(index)"), session: session)
            XCTAssertEqual(result.status, 200)
        }
        XCTAssertEqual(server.requestCount, 20)
        XCTAssertEqual(server.connectionCount, 1)
    }

    func testRawKeepAliveServesManyRequestsOnOneSocket() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 0..<50 {
            client.send("GET /echo?i=\(index) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let response = client.readResponse()
            XCTAssertEqual(response?.status, 200)
            let json = response.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
            XCTAssertEqual((json?["args"] as? [String: Any])?["i"] as? String, String(index))
        }
        XCTAssertEqual(server.connectionCount, 1)
        XCTAssertEqual(server.openConnectionCount, 1)
    }

    func testConnectionCloseIsHonored() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let response = client.readResponse()
        XCTAssertEqual(response?.status, 200)
        XCTAssertEqual(response?.headers["connection"], "close")
        XCTAssertTrue(client.isClosedByPeer())
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 3))
    }

    func testHTTP10ClosesByDefaultAndKeepsAliveOnRequest() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try RawClient(port: server.port)
        plain.send("GET /bytes/4 HTTP/1.0\r\n\r\n")
        XCTAssertEqual(plain.readResponse()?.body, [0, 1, 2, 3])
        XCTAssertTrue(plain.isClosedByPeer())

        let keepAlive = try RawClient(port: server.port)
        keepAlive.send("GET /bytes/2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = keepAlive.readResponse()
        XCTAssertEqual(first?.headers["connection"], "keep-alive")
        keepAlive.send("GET /bytes/1 HTTP/1.0\r\n\r\n")
        XCTAssertEqual(keepAlive.readResponse()?.body, [0])
        XCTAssertTrue(keepAlive.isClosedByPeer())
    }

    func testChunkedResponseToHTTP10IsUnframedAndClosed() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /fault/drip?chunks=3&delay=0 HTTP/1.0\r\n\r\n")
        let response = client.readResponse()
        XCTAssertEqual(response?.status, 200)
        XCTAssertNil(response?.headers["transfer-encoding"])
        XCTAssertEqual(response.map { String(decoding: $0.body, as: UTF8.self) }, "chunk 0\nchunk 1\nchunk 2\n")
    }

    func testRawResponseCanKeepTheConnectionOpen() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.route("/raw") { _ in
            .raw(Data("HTTP/1.1 203 Custom\r\nContent-Length: 2\r\n\r\nok".utf8), closeAfter: false)
        }
        let client = try RawClient(port: server.port)
        client.send("GET /raw HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 203)
        client.send("GET /status/204 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 204)
    }
}
