@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The contract every ``Transport`` meets, over real HTTP on loopback, once per transport.
final class TransportConformanceTests: TransportTestCase {
    // MARK: - Answers

    func testThatAJSONBodyDecodesWithStatusAndHeaders() throws {
        try forEachTransport {
            server.route("/item") { _ in .json(["id": 1, "name": "a"], headers: [("X-Page-Count", "7")]) }
            let result = try XCTUnwrap(sendAndWait(GetItem()))
            XCTAssertEqual(result.value, Item(id: 1, name: "a"))
            XCTAssertEqual(result.metadata?.statusCode, 200)
            XCTAssertEqual(result.metadata?.header("x-page-count"), "7")
            XCTAssertEqual(result.metadata?.header("Content-Type"), "application/json")
        }
    }

    func testThatMethodsQueryHeadersAndBodiesArrive() throws {
        try forEachTransport {
            let post = try XCTUnwrap(
                sendAndWait(
                    EchoRequest(
                        method: .post, parameters: .init(query: ["q": "a b"], body: .json(["k": [1, 2]])),
                        headers: ["X-Endpoint-Kit": "yes"])
                )?.value)
            XCTAssertEqual(post.method, "POST")
            XCTAssertEqual(post.query, [["q", "a b"]])
            XCTAssertEqual(post.headers["x-endpoint-kit"], "yes")
            XCTAssertEqual(post.headers["content-type"], "application/json")
            XCTAssertEqual(post.json, ["k": [1, 2]])
            XCTAssertNil(post.headers["expect"])
            // What URLSession adds on its own, so that servers see the same request from either.
            XCTAssertNotNil(post.headers["user-agent"])
            XCTAssertNotNil(post.headers["accept-language"])
            XCTAssertTrue(post.headers["accept-encoding"]?.contains("gzip") ?? false)
            let custom = try XCTUnwrap(
                sendAndWait(EchoRequest(headers: ["User-Agent": "Custom/1", "Accept-Language": "fr"]))?.value)
            XCTAssertEqual(custom.headers["user-agent"], "Custom/1")
            XCTAssertEqual(custom.headers["accept-language"], "fr")
            for method: HTTPMethod in [.put, .patch, .delete] {
                let echo = try XCTUnwrap(sendAndWait(EchoRequest(method: method, parameters: .form(["k": "v"])))?.value)
                XCTAssertEqual(echo.method, method.rawValue)
                XCTAssertEqual(echo.form, ["k": "v"], "\(method)")
            }
            let head = execute(URLRequest(url: server.url("/echo")).with(method: "HEAD"))
            XCTAssertEqual(try head?.get().response.statusCode, 200)
            XCTAssertEqual(try head?.get().data.count, 0)
        }
    }

    func testThatAGzipBodyIsDecoded() throws {
        try forEachTransport {
            let gzipped: [UInt8] = [
                0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0xca, 0x4c, 0x51, 0xb2, 0x32,
                0xd7,
                0x51, 0xca, 0x4b, 0xcc, 0x4d, 0x55, 0xb2, 0x52, 0xaa, 0xca, 0x2c, 0x28, 0x48, 0x4d, 0x51, 0xaa, 0x05,
                0x00,
                0x48, 0xa4, 0x5d, 0x8c, 0x18, 0x00, 0x00, 0x00,
            ]
            server.route("/item") { _ in
                .response(
                    status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                    body: Data(gzipped))
            }
            XCTAssertEqual(sendAndWait(GetItem())?.value, Item(id: 7, name: "zipped"))
        }
    }

    func testThatAnHTTPErrorIsAServerFailureWithItsBody() throws {
        try forEachTransport {
            server.route("/item") { _ in .json(["message": "Too many"], status: 429) }
            let failure = try XCTUnwrap(sendAndWait(GetItem())?.serverFailure)
            XCTAssertEqual(failure.statusCode, 429)
            XCTAssertEqual(failure.message, "Too many")
        }
    }

    func testThatABasic401ChallengeIsAResponseAndDoesNotHang() throws {
        try forEachTransport {
            // The built-in route answers 401 with `WWW-Authenticate: Basic realm="test"`.
            let response = try XCTUnwrap(
                execute(URLRequest(url: server.url("/status/401")), timeouts: Timeouts(total: 5))
            ).get()
            XCTAssertEqual(response.response.statusCode, 401)
            XCTAssertNotNil(response.response.value(forHTTPHeaderField: "WWW-Authenticate"))
        }
    }

    func testThatManyConcurrentRequestsAllSucceed() throws {
        try forEachTransport {
            let done = expectation(description: "all")
            done.expectedFulfillmentCount = 40
            let successes = Counter()
            for index in 0..<40 {
                client.send(EchoRequest(parameters: .query(["i": QueryValue(index)]))) { result in
                    if result.value?.query == [["i", "\(index)"]] { successes.increment() }
                    done.fulfill()
                }
            }
            wait(for: [done], timeout: 20)
            XCTAssertEqual(successes.total, 40)
        }
    }

    func testThatCookiesSetByTheServerAreSentBack() throws {
        try forEachTransport {
            let name = "ek\(UUID().uuidString.prefix(8))"
            server.route("/cookies/set") { _ in
                .response(status: 200, headers: [("Set-Cookie", "\(name)=1; Path=/cookies")], body: Data())
            }
            server.route("/cookies/check") { .echo($0) }
            XCTAssertEqual(try execute(URLRequest(url: server.url("/cookies/set")))?.get().response.statusCode, 200)
            let data = try XCTUnwrap(execute(URLRequest(url: server.url("/cookies/check")))).get().data
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            // Both transports use the shared storage, where cookies are per host, not per port.
            XCTAssertTrue(echo.headers["cookie"]?.contains("\(name)=1") ?? false, "\(echo.headers)")
            for cookie in HTTPCookieStorage.shared.cookies ?? [] where cookie.name == name {
                HTTPCookieStorage.shared.deleteCookie(cookie)
            }
        }
    }

    // MARK: - Redirects

    func testThatRedirectsAreFollowedToTheFinalResponse() throws {
        try forEachTransport {
            let result = execute(URLRequest(url: server.url("/redirect/3")))
            let response = try XCTUnwrap(try result?.get())
            XCTAssertEqual(response.response.statusCode, 200)
            XCTAssertEqual(response.response.url?.path, "/echo")
        }
    }

    func testThatEndlessRedirectsAreTooManyRedirects() throws {
        try forEachTransport {
            server.route("/item") { _ in .redirect(to: "/item") }
            XCTAssertEqual(sendAndWait(GetItem())?.transportReason, .tooManyRedirects)
        }
    }

    func testThatA303AfterAPostIsFollowedWithAGet() throws {
        try forEachTransport {
            server.route("/submit") { _ in .redirect(to: "/echo", status: 303) }
            var request = URLRequest(url: server.url("/submit")).with(method: "POST")
            request.httpBody = Data("a=1".utf8)
            let echo = try JSONDecoder().decode(Echo.self, from: try XCTUnwrap(execute(request)).get().data)
            XCTAssertEqual(echo.method, "GET")
            XCTAssertEqual(echo.body, "")
        }
    }

    func testThatCredentialsAreNotForwardedToAnotherOrigin() throws {
        try forEachTransport {
            let port = server.port
            server.route("/same") { _ in .redirect(to: "/echo") }
            server.route("/other") { _ in .redirect(to: "http://localhost:\(port)/echo") }
            for (path, forwarded) in [("/same", true), ("/other", false)] {
                var request = URLRequest(url: server.url(path))
                request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
                request.setValue("session=secret", forHTTPHeaderField: "Cookie")
                let data = try XCTUnwrap(execute(request)).get().data
                let echo = try JSONDecoder().decode(Echo.self, from: data)
                XCTAssertEqual(echo.headers["authorization"] != nil, forwarded, path)
                XCTAssertEqual(echo.headers["cookie"] != nil, forwarded, path)
            }
        }
    }
}

extension URLRequest {
    /// The request with another method.
    func with(method: String) -> URLRequest {
        var copy = self
        copy.httpMethod = method
        return copy
    }
}
