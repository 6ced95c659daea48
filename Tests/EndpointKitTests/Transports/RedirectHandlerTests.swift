import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's own redirect handler (``APIRequest/redirectHandler``) over loopback, once per
/// transport: it stops, follows or changes the next request, within the client's policy and its
/// safety rules, which only `sendUnchecked` leaves.
final class RedirectHandlerTests: TransportTestCase {
    /// An echo request through `path` whose redirects `handler` decides.
    private struct Handled: APIRequest {
        typealias Response = Echo
        var method: HTTPMethod = .get
        var path: RequestPath
        var parameters: RequestParameters = .none
        var headers: HTTPHeaders = .empty
        var handler: (@Sendable (Redirect) -> RedirectAction)?
        var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { handler }
    }

    /// What a handler was asked: status, `Location`, the next request's URL and `Authorization`.
    private struct Asked: Equatable {
        let status: Int
        let location: String?
        let next: URL?
        let authorization: String?
    }

    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [Asked] = []

        /// A handler that records what it is asked, then answers with `answer`.
        func handler(
            _ answer: @escaping @Sendable (Redirect) -> RedirectAction
        ) -> @Sendable (Redirect) -> RedirectAction {
            { redirect in
                let asked = Asked(
                    status: redirect.response.statusCode,
                    location: redirect.response.value(forHTTPHeaderField: "Location"), next: redirect.next.url,
                    authorization: redirect.next.value(forHTTPHeaderField: "Authorization"))
                self.lock.withLock { self.asked.append(asked) }
                return answer(redirect)
            }
        }

        var calls: [Asked] { lock.withLock { asked } }
    }

    func testThatAHandlerCanStopAtTheRedirect() throws {
        try forEachTransport {
            server.route("/moved") { _ in .redirect(to: "/echo") }
            let recorder = Recorder()
            let result = try XCTUnwrap(sendAndWait(Handled(path: "/moved", handler: recorder.handler { _ in .stop })))
            XCTAssertEqual(result.serverFailure?.statusCode, 302, "the redirect response is the result")
            XCTAssertEqual(server.requestCount, 1, "nothing is sent for the redirect")
            XCTAssertEqual(
                recorder.calls, [Asked(status: 302, location: "/echo", next: server.url("/echo"), authorization: nil)])
            // Accepted by the request's validation, the 3xx is a response like any other.
            struct Accepting: APIRequest {
                typealias Response = Data
                var path: RequestPath { "/moved" }
                var validation: ResponseValidation? { ResponseValidation(acceptableStatusCodes: Set(200..<400)) }
                var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { { _ in .stop } }
            }
            let accepted = try XCTUnwrap(sendAndWait(Accepting()))
            XCTAssertEqual(accepted.metadata?.statusCode, 302)
            XCTAssertEqual(accepted.metadata?.header("Location"), "/echo")
        }
    }

    func testThatAHandlerCanFollowOrChangeTheNextRequest() throws {
        try forEachTransport {
            server.route("/moved") { _ in .redirect(to: "/echo?from=moved") }
            let recorder = Recorder()
            let followed = try XCTUnwrap(
                sendAndWait(Handled(path: "/moved", handler: recorder.handler { _ in .follow }))?.value)
            XCTAssertEqual(followed.path, "/echo")
            XCTAssertEqual(followed.query, [["from", "moved"]])
            XCTAssertEqual(recorder.calls.count, 1)
            // Another path and a header added.
            let changed = try XCTUnwrap(
                sendAndWait(
                    Handled(
                        path: "/moved",
                        handler: { [server] redirect in
                            var next = redirect.next
                            next.url = server?.url("/echo?from=handler")
                            next.setValue("yes", forHTTPHeaderField: "X-Redirected")
                            return .send(next)
                        })
                )?.value)
            XCTAssertEqual(changed.query, [["from", "handler"]])
            XCTAssertEqual(changed.headers["x-redirected"], "yes")
        }
    }

    func testThatAHandlerCanChangeTheMethodAndBody() throws {
        try forEachTransport {
            server.route("/moved") { _ in .redirect(to: "/echo", status: 307) }
            let post = Handled(
                method: .post, path: "/moved", parameters: .json(["keep": "me"]),
                handler: { redirect in
                    // A 307 resends the method and body: `next` already carries them.
                    guard redirect.next.httpMethod == "POST", redirect.next.httpBody != nil else { return .stop }
                    var next = redirect.next
                    next.httpMethod = "PUT"
                    next.httpBody = Data(#"{"changed":true}"#.utf8)
                    return .send(next)
                })
            let echo = try XCTUnwrap(sendAndWait(post)?.value)
            XCTAssertEqual(echo.method, "PUT")
            XCTAssertEqual(echo.json, ["changed": true])
            // A handler that drops the body of a 307.
            let dropped = try XCTUnwrap(
                sendAndWait(
                    Handled(
                        method: .post, path: "/moved", parameters: .json(["keep": "me"]),
                        handler: { redirect in
                            var next = redirect.next
                            next.httpMethod = "GET"
                            next.httpBody = nil
                            next.setValue(nil, forHTTPHeaderField: "Content-Type")
                            return .send(next)
                        })
                )?.value)
            XCTAssertEqual(dropped.method, "GET")
            XCTAssertEqual(dropped.body ?? "", "")
        }
    }

    func testThatASentRequestLosesCredentialsOnAnotherOriginUnlessUnchecked() throws {
        try forEachTransport {
            let other = try TestServer()
            defer { other.stop() }
            server.route("/hop") { _ in .redirect(to: other.url("/echo").absoluteString) }
            let recorder = Recorder()
            let headers: HTTPHeaders = ["Authorization": "Bearer secret", "X-Keep": "yes"]
            // The handler sees the next request as the client would send it: without the credential.
            let withAuthorization: @Sendable (Redirect) -> RedirectAction = { redirect in
                var next = redirect.next
                next.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
                return .send(next)
            }
            let checked = try XCTUnwrap(
                sendAndWait(Handled(path: "/hop", headers: headers, handler: recorder.handler(withAuthorization)))?
                    .value)
            XCTAssertEqual(
                recorder.calls,
                [
                    Asked(
                        status: 302, location: other.url("/echo").absoluteString, next: other.url("/echo"),
                        authorization: nil)
                ])
            XCTAssertNil(checked.headers["authorization"], "send(_:) applies the safety rules again")
            XCTAssertEqual(checked.headers["x-keep"], "yes")
            let unchecked = try XCTUnwrap(
                sendAndWait(
                    Handled(
                        path: "/hop", headers: headers,
                        handler: { redirect in
                            var next = redirect.next
                            next.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
                            return .sendUnchecked(next)
                        })
                )?.value)
            XCTAssertEqual(unchecked.headers["authorization"], "Bearer secret", "the explicit opt-out")
        }
    }

    func testThatTheHopLimitAndTheSchemeRuleStillApply() throws {
        try forEachTransport {
            server.route("/loop") { _ in .redirect(to: "/loop") }
            let recorder = Recorder()
            let limited = makeClient { $0.redirectPolicy = RedirectPolicy(maximumRedirects: 3) }
            let looped = sendAndWait(
                Handled(path: "/loop", handler: recorder.handler { .sendUnchecked($0.next) }), client: limited)
            XCTAssertEqual(looped?.transportReason, .tooManyRedirects)
            XCTAssertEqual(recorder.calls.count, 3, "not asked past the limit")
            XCTAssertEqual(server.requestCount, 4)
            // A policy that follows none: the handler is not asked.
            let none = makeClient { $0.redirectPolicy = RedirectPolicy(maximumRedirects: 0) }
            let stopped = sendAndWait(
                Handled(
                    path: "/loop",
                    handler: { _ in
                        XCTFail("asked"); return .follow
                    }), client: none)
            XCTAssertEqual(stopped?.serverFailure?.statusCode, 302)
            // Never anything but http(s), even unchecked.
            let before = server.requestCount
            let file = sendAndWait(
                Handled(
                    path: "/loop",
                    handler: { redirect in
                        var next = redirect.next
                        next.url = URL(string: "file:///etc/passwd")
                        return .sendUnchecked(next)
                    }))
            XCTAssertEqual(file?.transportReason, .unsupportedURL)
            XCTAssertEqual(server.requestCount, before + 1, "nothing is sent for it")
            // Nor a head that is not valid.
            let injected = sendAndWait(
                Handled(
                    path: "/loop",
                    handler: { redirect in
                        var next = redirect.next
                        // `setValue` drops such a value on Linux; this assignment keeps it.
                        var fields = next.allHTTPHeaderFields ?? [:]
                        fields["X-Value"] = "a\r\nInjected: 1"
                        next.allHTTPHeaderFields = fields
                        return .sendUnchecked(next)
                    }))
            XCTAssertEqual(injected?.transportReason, .requestBuildFailed)
        }
    }

    func testThatARequestWithAHandlerDoesNotShareATransfer() throws {
        try forEachTransport {
            let coalescing = makeClient { $0.coalescesIdenticalRequests = true }
            let done = expectation(description: "both")
            done.expectedFulfillmentCount = 2
            for _ in 0..<2 {
                coalescing.send(Handled(path: "/delay/300", handler: { _ in .follow })) { _ in done.fulfill() }
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(server.requestCount, 2, "each handler sees its own redirects")
        }
    }

    func testThatSubclassesAndEndpointValuesHaveAHandler() throws {
        try forEachTransport {
            server.route("/moved") { _ in .redirect(to: "/echo") }
            XCTAssertEqual(sendAndWait(StoppingAtRedirects())?.serverFailure?.statusCode, 302)
            var endpoint = Endpoint<Echo>(path: "/moved")
            XCTAssertEqual(sendAndWait(endpoint)?.value?.path, "/echo", "no handler: the policy alone")
            endpoint.redirectHandler = { _ in .stop }
            XCTAssertEqual(sendAndWait(endpoint)?.serverFailure?.statusCode, 302)
        }
    }
}

/// A subclass whose redirects are never followed.
nonisolated final class StoppingAtRedirects: BaseRequest<Echo> {
    override var path: RequestPath { "/moved" }
    override var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { { _ in .stop } }
}
