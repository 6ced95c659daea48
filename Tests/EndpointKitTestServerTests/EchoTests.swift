import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class EchoTests: XCTestCase {
    func testEchoRoundTripWithQueryHeadersAndBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = makeSession()
        var request = URLRequest(url: server.url("/echo?a=1&a=2&b=x%20y&c=1+2"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("hello", forHTTPHeaderField: "X-Custom")
        request.httpBody = Data(#"{"name":"Ada","n":[1,2]}"#.utf8)

        let result = fetch(request, session: session)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        let json = result.json
        XCTAssertEqual(json["method"] as? String, "POST")
        XCTAssertEqual(json["path"] as? String, "/echo")
        XCTAssertEqual(json["target"] as? String, "/echo?a=1&a=2&b=x%20y&c=1+2")
        XCTAssertEqual(json["query"] as? [[String]], [["a", "1"], ["a", "2"], ["b", "x y"], ["c", "1+2"]])
        let args = json["args"] as? [String: Any]
        XCTAssertEqual(args?["a"] as? [String], ["1", "2"])
        XCTAssertEqual(args?["b"] as? String, "x y")
        let headers = json["headers"] as? [String: String]
        XCTAssertEqual(headers?["x-custom"], "hello")
        XCTAssertEqual(headers?["content-type"], "application/json")
        XCTAssertEqual(json["body"] as? String, #"{"name":"Ada","n":[1,2]}"#)
        XCTAssertEqual(json["bodyBase64"] as? String, Data(#"{"name":"Ada","n":[1,2]}"#.utf8).base64EncodedString())
        let parsed = json["json"] as? [String: Any]
        XCTAssertEqual(parsed?["name"] as? String, "Ada")
        XCTAssertNil(json["form"])
        XCTAssertEqual(server.requestCount, 1)
    }

    func testEchoFormBodyAndBinaryBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = makeSession()
        var form = URLRequest(url: server.url("/echo"))
        form.httpMethod = "PUT"
        form.setValue("application/x-www-form-urlencoded; charset=utf-8", forHTTPHeaderField: "Content-Type")
        form.httpBody = Data("name=Ada+Lovelace&tag=a&tag=b&x=%26".utf8)
        let formJSON = fetch(form, session: session).json
        XCTAssertEqual(formJSON["method"] as? String, "PUT")
        let fields = formJSON["form"] as? [String: Any]
        XCTAssertEqual(fields?["name"] as? String, "Ada Lovelace")
        XCTAssertEqual(fields?["tag"] as? [String], ["a", "b"])
        XCTAssertEqual(fields?["x"] as? String, "&")

        var binary = URLRequest(url: server.url("/echo"))
        binary.httpMethod = "POST"
        let bytes = Data([0xFF, 0xFE, 0x00, 0x80])
        binary.httpBody = bytes
        let binaryJSON = fetch(binary, session: session).json
        XCTAssertTrue(binaryJSON["body"] is NSNull)
        XCTAssertTrue(binaryJSON["json"] is NSNull)
        XCTAssertEqual(binaryJSON["bodyBase64"] as? String, bytes.base64EncodedString())
    }

    func testLargeUploadAndDownload() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.route("/size") { request in .text(String(request.body.count)) }
        let session = makeSession()
        var upload = URLRequest(url: server.url("/size"))
        upload.httpMethod = "POST"
        upload.httpBody = Data(repeating: 7, count: 5 * 1024 * 1024)  // big enough for curl's Expect: 100-continue
        let uploaded = fetch(upload, session: session)
        XCTAssertEqual(uploaded.status, 200)
        XCTAssertEqual(uploaded.text, String(5 * 1024 * 1024))

        let download = fetch(server.url("/bytes/3000000"), session: session)
        XCTAssertEqual(download.status, 200)
        XCTAssertEqual(download.data, TestServer.patternBytes(count: 3_000_000))
    }

    func testRoutingPrecedenceAndNotFound() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.route("/api/*") { _ in .text("short prefix") }
        server.route("/api/users/*") { _ in .text("long prefix") }
        server.route("/api/users/me") { _ in .text("first exact") }
        server.route("/api/users/me") { request in .text("exact \(request.queryValue("q") ?? "-")") }
        server.route("/echo") { _ in .status(418) }
        let session = makeSession()

        XCTAssertEqual(fetch(server.url("/api/users/me?q=1"), session: session).text, "exact 1")
        XCTAssertEqual(fetch(server.url("/api/users/42"), session: session).text, "long prefix")
        XCTAssertEqual(fetch(server.url("/api/other"), session: session).text, "short prefix")
        XCTAssertEqual(fetch(server.url("/echo"), session: session).status, 418)
        XCTAssertEqual(fetch(server.url("/nope"), session: session).status, 404)
    }

    func testHeadRequestHasNoBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("HEAD /bytes/100 HTTP/1.1\r\nHost: x\r\n\r\nGET /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = client.readResponse(isHead: true)
        XCTAssertEqual(head?.status, 200)
        XCTAssertEqual(head?.headers["content-length"], "100")
        let next = client.readResponse()
        XCTAssertEqual(next?.body, [0, 1, 2])
    }

    func testRequestModelParsing() {
        let request = TestRequest(
            method: "GET", target: "/a%20b/c?x=1&y=%E2%9C%93&z=a+b&flag&=v&x=2",
            headers: [(name: "X-One", value: "1"), (name: "x-one", value: "2")])
        XCTAssertEqual(request.path, "/a%20b/c")
        XCTAssertEqual(request.queryValue("y"), "✓")
        XCTAssertEqual(request.queryValue("z"), "a+b")
        XCTAssertEqual(request.queryValue("flag"), "")
        XCTAssertEqual(request.queryValue(""), "v")
        XCTAssertEqual(request.queryValues("x"), ["1", "2"])
        XCTAssertEqual(request.header("X-ONE"), "1")
        XCTAssertEqual(request.headerValues("x-one"), ["1", "2"])
        XCTAssertNil(request.header("missing"))

        let absolute = TestRequest(method: "GET", target: "http://example.com:80/p/q?k=%zz")
        XCTAssertEqual(absolute.path, "/p/q")
        XCTAssertEqual(absolute.queryValue("k"), "%zz")
    }

    func testResponseFactories() {
        guard case .response(let status, let headers, let body) = TestResponse.json(["b": 1, "a": "x/y"], status: 201)
        else { return XCTFail("expected .response") }
        XCTAssertEqual(status, 201)
        XCTAssertEqual(headers.first?.0, "Content-Type")
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"a":"x/y","b":1}"#)

        guard
            case .response(let textStatus, let textHeaders, _) = TestResponse.text(
                "hi", headers: [("content-type", "x/y")])
        else { return XCTFail("expected .response") }
        XCTAssertEqual(textStatus, 200)
        XCTAssertEqual(textHeaders.count, 1, "an explicit content type replaces the default")

        guard case .response(let badStatus, _, _) = TestResponse.json(["date": Date()]) else {
            return XCTFail("expected .response")
        }
        XCTAssertEqual(badStatus, 500)
    }

    func testEchoEscapesAwkwardText() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let body = "quote \" backslash \\ newline \n tab \t control \u{1} unicode é✓ slash /"
        let length = body.utf8.count
        client.send(
            "POST /echo?k%22=v%5C HTTP/1.1\r\nX-Quote: say \"hi\"\r\nContent-Length: \(length)\r\n\r\n\(body)")
        let response = try XCTUnwrap(client.readResponse())
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(json["body"] as? String, body)
        XCTAssertEqual((json["headers"] as? [String: String])?["x-quote"], "say \"hi\"")
        XCTAssertEqual((json["args"] as? [String: Any])?["k\""] as? String, "v\\")
        XCTAssertTrue(json["json"] is NSNull)
    }

    func testThroughputSmoke() throws {
        // Guards against per-request stalls (e.g. Nagle/delayed-ACK interplay costs ~40 ms each).
        let server = try TestServer()
        defer { server.stop() }
        let clients = try (0..<4).map { _ in try RawClient(port: server.port) }
        let seconds = elapsed {
            for _ in 0..<250 {
                for client in clients { client.send("GET /bytes/64 HTTP/1.1\r\nHost: x\r\n\r\n") }
                for client in clients { XCTAssertEqual(client.readResponse()?.body.count, 64) }
            }
        }
        XCTAssertEqual(server.requestCount, 1000)
        XCTAssertLessThan(seconds, 60, "bounded")
    }
}
