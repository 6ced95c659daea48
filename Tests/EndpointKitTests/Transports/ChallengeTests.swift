import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP authentication over loopback, once per transport: a Basic header without writing it, and
/// `Basic` and `Digest` challenges answered with the request's or the client's credential, once,
/// and never for another origin.
final class ChallengeTests: TransportTestCase {
    private static let user = "ada"
    private static let password = "lovelace"
    private static let right = HTTPCredential(user: user, password: password)
    private static let wrong = HTTPCredential(user: user, password: "babbage")

    /// An endpoint with a credential of its own.
    private struct Guarded: APIRequest {
        typealias Response = Echo
        var path: RequestPath
        var method: HTTPMethod = .get
        var parameters: RequestParameters = .none
        var credential: HTTPCredential?
        var baseURL: URL?
    }

    /// `path` answers with an echo when the request carries `ada`'s Basic credentials, else with
    /// a 401 challenge.
    private func routeBasic(_ path: String, on server: TestServer? = nil) {
        let expected = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
        (server ?? self.server).route(path) { request in
            request.header("Authorization") == expected
                ? .echo(request)
                : .response(
                    status: 401, headers: [("WWW-Authenticate", #"Basic realm="loopback", charset="UTF-8""#)],
                    body: Data("who are you".utf8))
        }
    }

    /// `path` challenges with Digest (`algorithm`, `qop=auth` unless `qop` is false) and answers
    /// with an echo only to a response it verifies: RFC 7616's hash of `ada`'s password, the
    /// method and target of the request that carries it, its nonce and opaque, nonce count 1.
    private func routeDigest(_ path: String, algorithm: String, qop: Bool = true) {
        let nonce = UUID().uuidString
        let challenge =
            #"Digest realm="loopback", nonce="\#(nonce)", opaque="op", algorithm=\#(algorithm)"#
            + (qop ? #", qop="auth,auth-int""# : "")
        let hash: @Sendable (String) -> String = { text in
            let data = Data(text.utf8)
            return Digest.lowercaseHex(algorithm.hasPrefix("MD5") ? MD5.hash(data) : SHA256.hash(data))
        }
        server.route(path) { request in
            let refusal = TestResponse.response(status: 401, headers: [("WWW-Authenticate", challenge)], body: Data())
            guard let field = request.header("Authorization"),
                let answer = HTTPChallenge.parse(field).first, answer.scheme == "Digest",
                let parameters = Optional(answer.parameters), parameters["username"] == Self.user,
                parameters["realm"] == "loopback", parameters["nonce"] == nonce, parameters["opaque"] == "op",
                parameters["uri"] == request.target, parameters["algorithm"] == algorithm
            else { return refusal }
            var secret = hash("\(Self.user):loopback:\(Self.password)")
            let cnonce = parameters["cnonce"] ?? ""
            if algorithm.hasSuffix("-sess") { secret = hash("\(secret):\(nonce):\(cnonce)") }
            let target = hash("\(request.method):\(request.target)")
            let expected =
                qop
                ? hash("\(secret):\(nonce):\(parameters["nc"] ?? ""):\(cnonce):\(parameters["qop"] ?? ""):\(target)")
                : hash("\(secret):\(nonce):\(target)")
            let valid =
                parameters["response"] == expected
                && (!qop || (parameters["qop"] == "auth" && parameters["nc"] == "00000001" && !cnonce.isEmpty))
            return valid ? .echo(request) : refusal
        }
    }

    // MARK: - Basic

    func testThatABasicHeaderIsSentWithoutAChallenge() throws {
        try forEachTransport {
            let echo = try XCTUnwrap(
                sendAndWait(EchoRequest(headers: .authorization(username: Self.user, password: Self.password)))?.value)
            XCTAssertEqual(echo.headers["authorization"], "Basic YWRhOmxvdmVsYWNl")
            XCTAssertEqual(server.requestCount, 1)
        }
    }

    func testThatABasicChallengeIsAnsweredOnceWithTheRequestsCredential() throws {
        try forEachTransport {
            routeBasic("/basic")
            let echo = try XCTUnwrap(sendAndWait(Guarded(path: "/basic", credential: Self.right))?.value)
            XCTAssertEqual(echo.headers["authorization"], "Basic YWRhOmxvdmVsYWNl")
            XCTAssertEqual(server.requestCount, 2, "the request, then its answer")
        }
    }

    func testThatAWrongPasswordEndsAsA401AfterOneAnswer() throws {
        try forEachTransport {
            routeBasic("/basic")
            routeDigest("/digest", algorithm: "SHA-256")
            for path in ["/basic", "/digest"] {
                let before = server.requestCount
                let failure = try XCTUnwrap(
                    sendAndWait(Guarded(path: RequestPath(stringLiteral: path), credential: Self.wrong))?.serverFailure,
                    path)
                XCTAssertEqual(failure.statusCode, 401, path)
                XCTAssertEqual(server.requestCount - before, 2, "\(path): one answer, no loop")
            }
        }
    }

    func testThatARequestWithoutCredentialGetsThe401() throws {
        try forEachTransport {
            routeBasic("/basic")
            XCTAssertEqual(sendAndWait(Guarded(path: "/basic"))?.serverFailure?.statusCode, 401)
            XCTAssertEqual(server.requestCount, 1)
        }
    }

    // MARK: - Digest

    func testThatDigestChallengesAreAnswered() throws {
        try forEachTransport {
            for (algorithm, qop) in [
                ("MD5", true), ("SHA-256", true), ("MD5-sess", true), ("SHA-256-sess", true), ("MD5", false),
            ] {
                let path = "/digest/\(algorithm)/\(qop)"
                routeDigest(path, algorithm: algorithm, qop: qop)
                let result = sendAndWait(Guarded(path: RequestPath(stringLiteral: path), credential: Self.right))
                XCTAssertEqual(result?.value?.path, path, "\(algorithm) qop=\(qop): \(String(describing: result))")
            }
        }
    }

    func testThatADigestAnswerResendsTheMethodBodyAndQuery() throws {
        try forEachTransport {
            routeDigest("/digest", algorithm: "SHA-256")
            let result = sendAndWait(
                Guarded(
                    path: "/digest", method: .post,
                    parameters: .init(query: ["q": "a b"], body: .json(["keep": "me"])), credential: Self.right))
            let echo = try XCTUnwrap(result?.value, String(describing: result))
            XCTAssertEqual(echo.method, "POST")
            XCTAssertEqual(echo.query, [["q", "a b"]])
            XCTAssertEqual(echo.json, ["keep": "me"])
        }
    }

    // MARK: - Whose credential, and where it goes

    func testThatTheRequestsCredentialWinsOverTheClients() throws {
        try forEachTransport {
            routeBasic("/basic")
            let client = makeClient { $0.credential = Self.wrong }
            XCTAssertNotNil(sendAndWait(Guarded(path: "/basic", credential: Self.right), client: client)?.value)
            XCTAssertEqual(
                sendAndWait(Guarded(path: "/basic"), client: client)?.serverFailure?.statusCode, 401,
                "without its own, the client's (wrong) one answers")
            let rightClient = makeClient { $0.credential = Self.right }
            XCTAssertNotNil(sendAndWait(Guarded(path: "/basic"), client: rightClient)?.value)
        }
    }

    func testThatNoCredentialGoesToAnotherOriginAfterARedirect() throws {
        try forEachTransport {
            let other = try TestServer()
            defer { other.stop() }
            let seen = Locked<[String?]>([])
            other.route("/guarded") { request in
                seen.withLock { $0.append(request.header("Authorization")) }
                return .response(status: 401, headers: [("WWW-Authenticate", #"Basic realm="other""#)], body: Data())
            }
            server.route("/away") { _ in .redirect(to: other.url("/guarded").absoluteString) }
            // The request's credential, and the client's, after a redirect to another port.
            let result = sendAndWait(Guarded(path: "/away", credential: Self.right))
            XCTAssertEqual(result?.serverFailure?.statusCode, 401)
            let client = makeClient { $0.credential = Self.right }
            XCTAssertEqual(sendAndWait(Guarded(path: "/away"), client: client)?.serverFailure?.statusCode, 401)
            // The client's credential, for a request whose own base URL is another origin.
            XCTAssertEqual(
                sendAndWait(Guarded(path: "/guarded", baseURL: other.baseURL), client: client)?.serverFailure?
                    .statusCode,
                401)
            XCTAssertEqual(seen.withLock { $0 }, [nil, nil, nil], "no Authorization ever reached the other origin")
            // Within the origin, a redirect before the challenge is answered at the URL that challenged.
            routeBasic("/basic")
            server.route("/here") { _ in .redirect(to: "/basic") }
            XCTAssertEqual(sendAndWait(Guarded(path: "/here", credential: Self.right))?.value?.path, "/basic")
        }
    }

    func testThatAnAnswerIsDroppedWhenItsResendIsRedirectedToAnotherOrigin() throws {
        try forEachTransport {
            let other = try TestServer()
            defer { other.stop() }
            other.route("/echo") { .echo($0) }
            let answered = Locked(false)
            server.route("/moving") { request in
                guard request.header("Authorization") != nil else {
                    return .response(status: 401, headers: [("WWW-Authenticate", #"Basic realm="r""#)], body: Data())
                }
                answered.withLock { $0 = true }
                return .redirect(to: other.url("/echo").absoluteString)
            }
            let echo = try XCTUnwrap(sendAndWait(Guarded(path: "/moving", credential: Self.right))?.value)
            XCTAssertTrue(answered.withLock { $0 })
            XCTAssertNil(echo.headers["authorization"])
        }
    }

    func testThatAResponseUnlockedByACredentialIsNotCachedForOthers() throws {
        try forEachTransport {
            let expected = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
            server.route("/cached") { request in
                request.header("Authorization") == expected
                    ? .json(["secret": true], headers: [("Cache-Control", "max-age=600")])
                    : .response(status: 401, headers: [("WWW-Authenticate", #"Basic realm="r""#)], body: Data())
            }
            let client = makeClient { $0.cache = ResponseCache(directory: nil) }
            struct Cached: APIRequest {
                typealias Response = Data
                var path: RequestPath { "/cached" }
                var credential: HTTPCredential?
            }
            XCTAssertNotNil(sendAndWait(Cached(credential: Self.right), client: client)?.value)
            XCTAssertEqual(sendAndWait(Cached(), client: client)?.serverFailure?.statusCode, 401)
        }
    }
}
