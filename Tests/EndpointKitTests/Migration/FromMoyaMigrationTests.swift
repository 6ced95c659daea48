// The complete example of Docs/Migration/FromMoya.md, copied verbatim below its imports (keep the
// two in sync: when the guide's example changes, copy it here), then run against the loopback
// server and against its own samples.

import EndpointKit
import EndpointKitTestServer
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

nonisolated struct GitHubUser: Decodable, Sendable {
    let id: Int
    let login: String
}

struct GitHubRepo: nonisolated Decodable, Sendable {
    let name: String
    @Lenient var stars: Int
}

// What were the cases of one `enum GitHub: TargetType`.
struct UserProfile: APIRequest {
    typealias Response = GitHubUser
    let login: String
    var path: RequestPath { "/users/\(login)" }
}

struct UserRepos: APIRequest {
    typealias Response = [GitHubRepo]
    let login: String
    var sort = "pushed"
    var path: RequestPath { "/users/\(login)/repos" }
    var parameters: RequestParameters { .query(["sort": .string(sort)]) }
}

struct StarRepo: APIRequest {
    typealias Response = Empty
    let owner: String
    let repo: String
    var method: HTTPMethod { .put }
    var path: RequestPath { "/user/starred/\(owner)/\(repo)" }
    var headers: HTTPHeaders { ["Accept": "application/vnd.github+json"] }
}

// What was `sampleData`, next to the endpoint (in the test target in a real app).
extension UserProfile: SampleResponseProviding {
    var sampleResponse: StubResponse { .json(#"{"id":1,"login":"octocat"}"#) }
    var sampleResponses: [String: StubResponse] { ["missing": .json(#"{"message":"Not Found"}"#, status: 404)] }
}

extension UserRepos: SampleResponseProviding {
    var sampleResponse: StubResponse { .json(#"[{"name":"hello-world","stars":"42"}]"#) }
}

/// A plugin in Moya's sense: hears every attempt and every completion.
struct TimingPlugin: APIPlugin {
    func willSend(_ request: URLRequest, context: RequestContext) {
        print("→", context.endpoint, "attempt", context.attempt)
    }
    func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        print("←", context.endpoint, result.isSuccess ? "ok" : "failed")
    }
}

/// The provider: the real API, or the samples (`immediatelyStub`).
func makeGitHubClient(baseURL: URL? = URL(string: "https://api.github.com"), stubbed: Bool = false) -> APIClient {
    var configuration = APIClient.Configuration(
        baseURL: baseURL, transport: stubbed ? StubTransport(answersFromSamples: true) : nil)
    configuration.plugins = [TimingPlugin(), LoggerPlugin(level: .info)]
    return APIClient(configuration: configuration)
}

/// A user and the names of their repositories.
func showOctocat(with client: APIClient) async throws -> (login: String, repos: [String]) {
    let user = try await client.value(for: UserProfile(login: "octocat"))
    let repos = try await client.value(for: UserRepos(login: user.login))
    return (user.login, repos.map(\.name))
}

/// One Moya-style completion closure, for code that is not async.
func star(_ repo: StarRepo, with client: APIClient, done: @escaping @MainActor @Sendable (Bool) -> Void) {
    client.send(repo) { result in
        if case .serverFailure(let failure) = result { print("refused with", failure.statusCode) }
        done(result.isSuccess)
    }
}

// MARK: - Tests
/// One value set from another thread.
private final class MoyaBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    func set(_ value: Value) { lock.withLock { stored = value } }
    var value: Value? { lock.withLock { stored } }
}

final class FromMoyaMigrationTests: LoopbackTestCase {
    func testThatTheMigratedEndpointsTalkToTheServerAsMoyaDid() async throws {
        // GIVEN a GitHub-shaped server
        let inbox = Inbox()
        server.route("/users/octocat") { request in
            inbox.record(request)
            return .json(string: #"{"id":1,"login":"octocat"}"#)
        }
        server.route("/users/octocat/repos") { request in
            inbox.record(request)
            return .json(string: #"[{"name":"hello-world","stars":"42"},{"name":"spoon-knife","stars":7}]"#)
        }
        server.route("/user/starred/octocat/hello-world") { request in
            inbox.record(request)
            return .status(204)
        }
        let client = makeGitHubClient(baseURL: server.baseURL)

        // WHEN the example's calls run against it
        let shown = try await showOctocat(with: client)
        let starred = expectation(description: "starred")
        let outcome = MoyaBox<Bool>()
        star(StarRepo(owner: "octocat", repo: "hello-world"), with: client) { ok in
            outcome.set(ok)
            starred.fulfill()
        }
        await fulfillment(of: [starred], timeout: 10)

        // THEN the values came back decoded, and the server saw each endpoint as declared
        XCTAssertEqual(shown.login, "octocat")
        XCTAssertEqual(shown.repos, ["hello-world", "spoon-knife"])
        XCTAssertEqual(outcome.value, true)
        let requests = inbox.requests
        XCTAssertEqual(requests.map(\.method), ["GET", "GET", "PUT"])
        XCTAssertEqual(requests[1].queryValue("sort"), "pushed")
        XCTAssertEqual(requests[2].header("Accept"), "application/vnd.github+json")
    }

    func testThatTheStubbedClientAnswersFromTheSamples() async throws {
        // GIVEN the example's stubbed client (immediatelyStub)
        let client = makeGitHubClient(stubbed: true)

        // WHEN the example runs on it
        let shown = try await showOctocat(with: client)

        // THEN the samples answered, without a server
        XCTAssertEqual(shown.login, "octocat")
        XCTAssertEqual(shown.repos, ["hello-world"])
        XCTAssertEqual(server.requestCount, 0)
    }

    func testThatANamedSampleAndADelayedStubGoOnTheStubTransport() async throws {
        // GIVEN a stub transport with the named 404 sample for one endpoint and a delay for the rest
        let stubs = StubTransport(answersFromSamples: true)
        stubs.stub(.anyRequest, with: .delayed(0.05, .sample))
        stubs.stub(.request(UserProfile.self), with: .sample("missing"))
        let client = APIClient(configuration: .init(baseURL: URL(string: "https://api.github.com"), transport: stubs))

        // WHEN both endpoints are sent
        let missing = await client.send(UserProfile(login: "ghost"))
        let repos = try await client.value(for: UserRepos(login: "octocat"))

        // THEN the named sample is a server failure and the delayed sample still decodes
        XCTAssertEqual(missing.serverFailure?.statusCode, 404)
        XCTAssertEqual(repos.first?.stars, 42)
        XCTAssertEqual(stubs.endpoints(of: UserProfile.self).map(\.login), ["ghost"])
    }

    /// "Behaviour that differs": Moya's default validation is `.none`.
    func testThatA404IsAServerFailureUnlessValidationAcceptsEveryStatus() async throws {
        // GIVEN a server that answers 404 with a JSON body
        server.route("/users/ghost") { _ in .json(string: #"{"message":"Not Found"}"#, status: 404) }
        let client = makeGitHubClient(baseURL: server.baseURL)

        // WHEN the endpoint is sent as is, and as Moya's `.none` validation (any status, raw body)
        let refused = await client.send(UserProfile(login: "ghost"))
        let accepted = await client.send(AnyStatusProfile(login: "ghost"))

        // THEN the first is a ServerFailure with the body kept; the second a success with the status
        XCTAssertEqual(refused.serverFailure?.statusCode, 404)
        XCTAssertEqual(refused.serverFailure?.bodyText, #"{"message":"Not Found"}"#)
        guard case .success(let body, let metadata) = accepted else { return XCTFail("\(accepted)") }
        XCTAssertEqual(metadata.statusCode, 404)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"message":"Not Found"}"#)
    }

    /// "Behaviour that differs": Moya's URLEncoding writes `a[]=x&a[]=y`.
    func testThatBracketsArrayEncodingMatchesMoyasURLEncoding() async throws {
        // GIVEN a server that records the raw target, and a client with brackets
        let inbox = Inbox()
        server.route("/search") { request in
            inbox.record(request)
            return .json(string: "{}")
        }
        let client = makeClient { $0.arrayEncoding = .brackets }

        // WHEN a list parameter is sent
        _ = try await client.value(
            for: Endpoint<JSONValue>(path: "/search", parameters: .query(["labels": ["bug", "ui"]])))

        // THEN it went out as Moya's URLEncoding writes it
        XCTAssertEqual(inbox.requests.first?.queryValues("labels[]"), ["bug", "ui"])
    }
}

/// `UserProfile` with Moya's default validation: every status, the raw body.
private struct AnyStatusProfile: APIRequest {
    typealias Response = Data
    let login: String
    var path: RequestPath { "/users/\(login)" }
    var validation: ResponseValidation? { ResponseValidation(acceptableStatusCodes: Set(100..<600)) }
}
