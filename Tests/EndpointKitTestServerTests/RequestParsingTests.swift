import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class RequestParsingTests: XCTestCase {
    private func bodyJSON(_ response: (status: Int, headers: [String: String], body: [UInt8])?) -> [String: Any] {
        response.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] } ?? [:]
    }

    func testChunkedRequestBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n1;ext=1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n")
        let json = bodyJSON(client.readResponse())
        XCTAssertEqual(json["body"] as? String, "hello 0123456789")
        // The connection stays usable after a chunked body.
        client.send("GET /bytes/2 HTTP/1.1\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, [0, 1])
    }

    func testChunkedRequestBodyFromURLSessionStream() throws {
        let server = try TestServer()
        defer { server.stop() }
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let received = Box<Data?>(nil)
        server.route("/upload") { request in
            received.set(request.body)
            return .text(request.header("Transfer-Encoding") ?? "length")
        }
        var request = URLRequest(url: server.url("/upload"))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: payload)
        let result = fetch(request, session: makeSession())
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(received.get(), payload)
    }

    func testExpectContinueGetsInterimResponse() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        // Nothing else is sent until the interim response arrives.
        var interim = [UInt8](repeating: 0, count: 25)
        XCTAssertEqual(recv(client.fd, &interim, interim.count, Int32(MSG_WAITALL)), 25)
        XCTAssertEqual(String(decoding: interim, as: UTF8.self), "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("ping")
        XCTAssertEqual(bodyJSON(client.readResponse())["body"] as? String, "ping")
    }

    func testOversizedHeadersGet431() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let filler = String(repeating: "a", count: 8000)
        var request = "GET /echo HTTP/1.1\r\n"
        for index in 0..<10 { request += "X-Filler-\(index): \(filler)\r\n" }
        client.send(request + "\r\n")
        XCTAssertEqual(client.readResponse()?.status, 431)
        XCTAssertTrue(client.isClosedByPeer())
    }

    func testMalformedRequestsGet400() throws {
        let server = try TestServer()
        defer { server.stop() }
        let cases = [
            "GARBAGE\r\n\r\n",
            "GET /echo HTTP/1.1 extra\r\n\r\n",
            "GET /echo HTTX/1.1\r\n\r\n",
            "GET /echo HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET /echo HTTP/1.1\r\nBad Name: x\r\n\r\n",
            "GET /echo HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n",
            "POST /echo HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
            "POST /echo HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "POST /echo HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        ]
        for text in cases {
            let client = try RawClient(port: server.port)
            client.send(text)
            XCTAssertEqual(client.readResponse()?.status, 400, text.debugDescription)
            XCTAssertTrue(client.isClosedByPeer(), text.debugDescription)
        }
        XCTAssertEqual(server.requestCount, 0)
    }

    func testUnsupportedVersionAndTransferCoding() throws {
        let server = try TestServer()
        defer { server.stop() }
        let version = try RawClient(port: server.port)
        version.send("GET /echo HTTP/2.0\r\n\r\n")
        XCTAssertEqual(version.readResponse()?.status, 505)
        let coding = try RawClient(port: server.port)
        coding.send("POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
        XCTAssertEqual(coding.readResponse()?.status, 501)
    }

    func testBodyOverLimitGets413() throws {
        let server = try TestServer(maxRequestBodySize: 1000)
        defer { server.stop() }
        let declared = try RawClient(port: server.port)
        declared.send("POST /echo HTTP/1.1\r\nContent-Length: 1001\r\nExpect: 100-continue\r\n\r\n")
        XCTAssertEqual(declared.readResponse()?.status, 413)

        let chunked = try RawClient(port: server.port)
        let chunk = String(repeating: "x", count: 600)
        chunked.send(
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        XCTAssertEqual(chunked.readResponse()?.status, 413)

        let withinLimit = try RawClient(port: server.port)
        withinLimit.send("POST /echo HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "y", count: 1000))
        XCTAssertEqual(withinLimit.readResponse()?.status, 200)
    }

    func testLenientLineEndingsAndLeadingEmptyLines() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("\r\n\nGET /echo?x=1 HTTP/1.1\nHost: x\nX-Test:   padded value  \n\n")
        let json = bodyJSON(client.readResponse())
        XCTAssertEqual((json["headers"] as? [String: String])?["x-test"], "padded value")
        XCTAssertEqual(json["path"] as? String, "/echo")
    }

    func testRequestSplitAcrossManyWrites() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let text = "POST /echo?q=split HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
        for byte in text.utf8 {
            client.send([byte])
        }
        let json = bodyJSON(client.readResponse())
        XCTAssertEqual(json["body"] as? String, "hello world")
        XCTAssertEqual((json["args"] as? [String: Any])?["q"] as? String, "split")
    }
}
