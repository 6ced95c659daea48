import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirect safety: limits, no https-to-http, credentials dropped across origins, 307/308 bodies.
final class RedirectTests: LoopbackTestCase {
    func testThatCredentialsAreDroppedWhenARedirectLeavesTheOrigin() async throws {
        let other = try TestServer()
        defer { other.stop() }
        server.route("/hop") { _ in .redirect(to: other.url("/echo").absoluteString) }
        server.route("/local") { _ in .redirect(to: "/echo") }
        struct Hop: APIRequest {
            typealias Response = Echo
            var path: RequestPath
            var headers: HTTPHeaders { ["Authorization": "Bearer secret", "Cookie": "s=1", "X-Keep": "yes"] }
        }
        let away = try await client.value(for: Hop(path: "/hop"))
        XCTAssertNil(away.headers["authorization"])
        XCTAssertNil(away.headers["cookie"])
        XCTAssertEqual(away.headers["x-keep"], "yes")
        let local = try await client.value(for: Hop(path: "/local"))
        XCTAssertEqual(local.headers["authorization"], "Bearer secret")
    }

    func testThat307And308ResendTheMethodAndBody() async throws {
        for status in [307, 308] {
            server.route("/moved") { _ in .redirect(to: "/echo", status: status) }
            struct Post: APIRequest {
                typealias Response = Echo
                var method: HTTPMethod { .post }
                var path: RequestPath { "/moved" }
                var parameters: RequestParameters { .json(["keep": "me"]) }
            }
            let echo = try await client.value(for: Post())
            XCTAssertEqual(echo.method, "POST", "\(status)")
            XCTAssertEqual(echo.json, ["keep": "me"], "\(status)")
        }
    }

    func testThatTheRedirectLimitIsEnforced() async {
        server.route("/loop") { _ in .redirect(to: "/loop") }
        struct Loop: APIRequest {
            typealias Response = Empty
            var path: RequestPath { "/loop" }
        }
        let client = makeClient { $0.redirectPolicy = RedirectPolicy(maximumRedirects: 3) }
        let result = await client.send(Loop())
        XCTAssertEqual(result.transportReason, .tooManyRedirects)
        XCTAssertEqual(server.requestCount, 4)
        let noFollow = makeClient { $0.redirectPolicy = RedirectPolicy(maximumRedirects: 0) }
        let stopped = await noFollow.send(Loop())
        XCTAssertEqual(stopped.serverFailure?.statusCode, 302)
    }

    func testThatHTTPSIsNeverDowngradedToHTTP() {
        let policy = RedirectPolicy()
        var original = URLRequest(url: URL(string: "https://api.example.com/a")!)
        original.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        let downgrade = URLRequest(url: URL(string: "http://api.example.com/a")!)
        guard
            case .fail(.insecureRedirect, let message) = policy.decide(
                original: original, status: 302, proposed: downgrade, count: 1)
        else { return XCTFail("a downgrade must fail") }
        XCTAssertTrue(message.contains("https"))
        let allowed = RedirectPolicy(allowsInsecureRedirects: true)
        guard case .follow(let next) = allowed.decide(original: original, status: 302, proposed: downgrade, count: 1)
        else {
            return XCTFail("allowed when asked")
        }
        XCTAssertNil(next.value(forHTTPHeaderField: "Authorization"), "another origin (scheme) still loses credentials")
        var sameOrigin = URLRequest(url: URL(string: "https://api.example.com:443/b")!)
        sameOrigin.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        guard case .follow(let kept) = policy.decide(original: original, status: 301, proposed: sameOrigin, count: 1)
        else {
            return XCTFail("same origin follows")
        }
        XCTAssertEqual(kept.value(forHTTPHeaderField: "Authorization"), "Bearer x")
    }
}
