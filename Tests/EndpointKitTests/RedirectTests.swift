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

    func testThatOnlyAnUncheckedHandlerAnswerDowngradesHTTPSToHTTP() throws {
        let policy = RedirectPolicy()
        var original = URLRequest(url: URL(string: "https://api.example.com/a")!)
        original.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        let downgrade = URLRequest(url: URL(string: "http://api.example.com/b")!)
        let head = try XCTUnwrap(
            ResponseHead(
                url: URL(string: "https://api.example.com/a")!, statusCode: 302,
                fields: [("Location", "http://api.example.com/b")]))
        let asked = Locked<[URLRequest]>([])
        func decide(_ action: @escaping @Sendable (URLRequest) -> RedirectAction) -> RedirectPolicy.Decision {
            policy.decide(
                original: original, status: 302, proposed: downgrade, count: 1,
                handler: { redirect in
                    XCTAssertEqual(redirect.response.statusCode, 302)
                    asked.withLock { $0.append(redirect.next) }
                    return action(redirect.next)
                }, head: head)
        }
        guard case .fail(.insecureRedirect, _) = decide({ _ in .follow }) else {
            return XCTFail("follow keeps the policy's refusal")
        }
        // The handler is asked about the insecure request, already without the credential.
        XCTAssertEqual(asked.withLock { $0.first?.url }, downgrade.url)
        XCTAssertNil(asked.withLock { $0.first?.value(forHTTPHeaderField: "Authorization") })
        guard case .fail(.insecureRedirect, _) = decide({ .send($0) }) else {
            return XCTFail("send(_:) applies the rules again")
        }
        XCTAssertEqual(decide({ _ in .stop }), .stop)
        var https = downgrade
        https.url = URL(string: "https://api.example.com/c")
        https.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(
            decide({ [https] _ in .send(https) }), .follow(https), "back on the origin: the credential stays")
        var unchecked = downgrade
        unchecked.setValue("Bearer x", forHTTPHeaderField: "Authorization")
        XCTAssertEqual(decide({ [unchecked] _ in .sendUnchecked(unchecked) }), .follow(unchecked))
        // An allowed downgrade is a follow the handler may take as it is.
        let allowed = RedirectPolicy(allowsInsecureRedirects: true)
        let followed = allowed.decide(
            original: original, status: 302, proposed: downgrade, count: 1, handler: { _ in .follow }, head: head)
        XCTAssertEqual(followed, .follow(downgrade))
        // No handler: the policy alone, and the head is never made.
        let alone = policy.decide(
            original: original, status: 302, proposed: downgrade, count: 1, handler: nil,
            head: {
                XCTFail("made"); return head
            }())
        XCTAssertEqual(alone, policy.decide(original: original, status: 302, proposed: downgrade, count: 1))
        // Past the limit the handler is not asked.
        let count = asked.withLock { $0.count }
        _ = policy.decide(
            original: original, status: 302, proposed: downgrade, count: 11, handler: { _ in .follow }, head: head)
        XCTAssertEqual(asked.withLock { $0.count }, count)
    }
}
