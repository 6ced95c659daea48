import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Endpoint<Response>`, a request written as a value, side by side with the declared endpoint
/// it stands for: the same request on the wire, the same results.
final class EndpointValueTests: LoopbackTestCase {
    /// What the server received, comparable.
    private struct Received: Equatable {
        let method: String
        let path: String
        let query: [[String]]
        let headers: [String: String]
        let body: String?

        init(_ echo: Echo) {
            method = echo.method
            path = echo.path
            query = echo.query
            headers = echo.headers
            body = echo.body
        }
    }

    /// The declared endpoint for `/items`, as app code would write it.
    private struct DeclaredItems: APIRequest {
        typealias Response = [Item]
        var parameters: RequestParameters = .none
        var envelope: (any ResponseEnvelope)?
        var path: RequestPath { "/items" }
    }

    /// Records the endpoint name plugins are given.
    private final class EndpointNames: APIPlugin {
        let names = Locked<[String]>([])
        func willSend(_ request: URLRequest, context: RequestContext) {
            names.withLock { $0.append(context.endpoint) }
        }
    }

    /// A response type that is not `Decodable`.
    private struct Token: Sendable, Equatable {
        let raw: String
    }

    // MARK: - What the server receives

    func testThatEachMethodSendsWhatTheDeclaredEndpointSends() async throws {
        let headers: HTTPHeaders = ["X-Trace": "t-1", "Accept": "application/json"]
        let pairs: [(declared: EchoRequest, value: Endpoint<Echo>)] = [
            (
                EchoRequest(method: .get, parameters: .query(["page": 2, "q": "a b"]), headers: headers),
                Endpoint(path: "/echo", parameters: .query(["page": 2, "q": "a b"]), headers: headers)
            ),
            (
                EchoRequest(method: .post, parameters: .json(["name": "Ada", "age": 36]), headers: headers),
                Endpoint(method: .post, path: "/echo", parameters: .json(["name": "Ada", "age": 36]), headers: headers)
            ),
            (
                EchoRequest(method: .put, parameters: .form(["user": "ada lovelace"]).appendingQuery(["v": 2])),
                Endpoint(
                    method: .put, path: "/echo", parameters: .form(["user": "ada lovelace"]).appendingQuery(["v": 2]))
            ),
            (
                EchoRequest(method: .patch, parameters: .data(Data("raw".utf8), contentType: "text/plain")),
                Endpoint(method: .patch, path: "/echo", parameters: .data(Data("raw".utf8), contentType: "text/plain"))
            ),
            (
                EchoRequest(method: .delete, parameters: .query(["id": 7]), headers: headers),
                Endpoint(method: .delete, path: "/echo", parameters: .query(["id": 7]), headers: headers)
            ),
            (
                EchoRequest(method: .options, parameters: .query(["x": 1])),
                Endpoint(method: .options, path: "/echo", parameters: .query(["x": 1]))
            ),
        ]
        for (declared, value) in pairs {
            let expected = Received(try await client.value(for: declared))
            let received = Received(try await client.value(for: value))
            XCTAssertEqual(received, expected, "\(declared.method)")
            XCTAssertEqual(received.method, declared.method.rawValue)
            XCTAssertEqual(received.path, "/echo")
        }
    }

    func testThatTheServerSeesTheQueryBodyAndHeadersGiven() async throws {
        let echo = try await client.value(
            for: Endpoint<Echo>(
                method: .post,
                path: "/echo",
                parameters: .json(["name": "Ada"]).appendingQuery(["tag": ["x", "y"]]),
                headers: ["X-Trace": "t-2"]
            ))
        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.query, [["tag", "x"], ["tag", "y"]])
        XCTAssertEqual(echo.headers["x-trace"], "t-2")
        XCTAssertEqual(echo.headers["content-type"], "application/json")
        XCTAssertEqual(echo.json, ["name": "Ada"])
    }

    func testThatTheURLRequestIsTheDeclaredEndpointsOne() throws {
        let client = APIClient(baseURL: URL(string: "https://api.test/v1"))
        let hostile = "../admin?x"
        let value = Endpoint<[User]>(
            path: "/users/\(hostile)", parameters: .query(["page": 2]), headers: ["X-Trace": "t"])
        struct GetUsers: APIRequest {
            typealias Response = [User]
            let name: String
            var path: RequestPath { "/users/\(name)" }
            var parameters: RequestParameters { .query(["page": 2]) }
            var headers: HTTPHeaders { ["X-Trace": "t"] }
        }
        let built = try client.urlRequest(for: value)
        XCTAssertEqual(built, try client.urlRequest(for: GetUsers(name: hostile)))
        XCTAssertEqual(built.url?.absoluteString, "https://api.test/v1/users/..%2Fadmin%3Fx?page=2")
        XCTAssertEqual(built.httpMethod, "GET")
        XCTAssertNil(built.httpBody)

        let post = try client.urlRequest(
            for: Endpoint<User>(method: .post, path: "/users", parameters: .json(["name": "Ada"])))
        XCTAssertEqual(post.httpMethod, "POST")
        XCTAssertEqual(post.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(post.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"name":"Ada"}"#)

        var elsewhere = Endpoint<Empty>(method: .delete, path: "/sessions/current")
        elsewhere.baseURL = URL(string: "https://auth.test")
        XCTAssertEqual(try client.urlRequest(for: elsewhere).url?.absoluteString, "https://auth.test/sessions/current")
        XCTAssertEqual(try client.urlRequest(for: elsewhere).httpMethod, "DELETE")
    }

    // MARK: - Results

    func testThatASuccessDecodesAsForTheDeclaredEndpoint() async throws {
        server.route("/items") { _ in .json([["id": 1, "name": "a"], ["id": 2, "name": "b"]]) }
        let expected = try await client.value(for: DeclaredItems())
        let items = try await client.value(for: Endpoint<[Item]>(path: "/items"))
        XCTAssertEqual(items, expected)
        XCTAssertEqual(items, [Item(id: 1, name: "a"), Item(id: 2, name: "b")])

        let closure = await sendThroughClosure(Endpoint<[Item]>(path: "/items"))
        XCTAssertEqual(closure.value, expected)
        XCTAssertEqual(closure.metadata?.statusCode, 200)
    }

    func testThatDataStringEmptyAndOptionalResponsesDecodeByDefault() async throws {
        server.route("/text") { _ in .text("héllo") }
        server.route("/none") { _ in .status(204) }
        server.route("/blank") { _ in .json(string: "") }
        let data = try await client.value(for: Endpoint<Data>(path: "/text"))
        XCTAssertEqual(data, Data("héllo".utf8))
        let text = try await client.value(for: Endpoint<String>(path: "/text"))
        XCTAssertEqual(text, "héllo")
        let empty = try await client.value(for: Endpoint<Empty>(method: .delete, path: "/none"))
        XCTAssertEqual(empty, Empty())
        let absent = try await client.value(for: Endpoint<Item?>(path: "/blank"))
        XCTAssertNil(absent)
    }

    func testThatAServerFailureInTheEnvelopeMatchesTheDeclaredEndpoint() async throws {
        server.route("/items") { request in
            request.queryValue("fail") == nil
                ? .json(["status": 200, "result": [["id": 1, "name": "a"]]])
                : .json(["status": 500, "errCode": "E42", "errMsg": "Nope", "result": NSNull()])
        }
        var value = Endpoint<[Item]>(path: "/items")
        value.envelope = .statusResult()
        let declared = DeclaredItems(envelope: KeyPathEnvelope.statusResult())
        let items = try await client.value(for: value)
        XCTAssertEqual(items, [Item(id: 1, name: "a")])
        let declaredItems = try await client.value(for: declared)
        XCTAssertEqual(items, declaredItems)

        var failing = value
        failing.parameters = .query(["fail": 1])
        var declaredFailing = declared
        declaredFailing.parameters = .query(["fail": 1])
        let declaredResult = await client.send(declaredFailing)
        let expected = try XCTUnwrap(declaredResult.serverFailure)
        for result in [await client.send(failing), await sendThroughClosure(failing)] {
            let failure = try XCTUnwrap(result.serverFailure, "\(result)")
            XCTAssertEqual(failure.kind, .businessStatus)
            XCTAssertEqual(failure.kind, expected.kind)
            XCTAssertEqual(failure.statusCode, expected.statusCode)
            XCTAssertEqual(failure.code, "E42")
            XCTAssertEqual(failure.code, expected.code)
            XCTAssertEqual(failure.message, "Nope")
            XCTAssertEqual(failure.message, expected.message)
        }
        do {
            _ = try await client.value(for: failing)
            XCTFail("expected a server failure")
        } catch {
            XCTAssertEqual(error.serverFailure?.message, "Nope")
        }
    }

    func testThatTheClientsEnvelopeAppliesToAValue() async throws {
        server.route("/items") { _ in .json(["status": 200, "result": [["id": 3, "name": "c"]]]) }
        let client = makeClient { $0.envelope = .statusResult() }
        let items = try await client.value(for: Endpoint<[Item]>(path: "/items"))
        XCTAssertEqual(items, [Item(id: 3, name: "c")])
        let declaredItems = try await client.value(for: DeclaredItems())
        XCTAssertEqual(items, declaredItems)
    }

    func testThatAnHTTPFailureAndADecodingFailureMatchTheDeclaredEndpoint() async {
        server.route("/items") { request in
            request.queryValue("status").flatMap(Int.init).map { .status($0) } ?? .json([["id": "x"]])
        }
        let undecodable = await client.send(Endpoint<[Item]>(path: "/items"))
        XCTAssertEqual(undecodable.transportReason, .decodingFailed)
        let declaredUndecodable = await client.send(DeclaredItems())
        XCTAssertEqual(undecodable.transportReason, declaredUndecodable.transportReason)
        let closure = await sendThroughClosure(Endpoint<[Item]>(path: "/items"))
        XCTAssertEqual(closure.transportReason, .decodingFailed)

        let missing = await client.send(Endpoint<[Item]>(path: "/items", parameters: .query(["status": 404])))
        XCTAssertEqual(missing.serverFailure?.kind, .httpStatus)
        XCTAssertEqual(missing.serverFailure?.statusCode, 404)
        let declaredMissing = await client.send(DeclaredItems(parameters: .query(["status": 404])))
        XCTAssertEqual(missing.serverFailure?.statusCode, declaredMissing.serverFailure?.statusCode)
    }

    // MARK: - Decoding something that is not Decodable

    func testThatAResponseThatIsNotDecodableUsesItsDecodeClosure() async throws {
        server.route("/token") { request in
            request.queryValue("deny") == nil ? .text("abc123") : .text("denied")
        }
        let request = Endpoint<Token>(method: .get, path: "/token") { context in
            let text = String(decoding: context.data, as: UTF8.self)
            guard text != "denied" else { throw BusinessFailure(code: "denied", message: "No token for you") }
            return Token(raw: text)
        }
        let token = try await client.value(for: request)
        XCTAssertEqual(token, Token(raw: "abc123"))

        var denied = request
        denied.parameters = .query(["deny": 1])
        let failure = await client.send(denied).serverFailure
        XCTAssertEqual(failure?.kind, .businessStatus)
        XCTAssertEqual(failure?.message, "No token for you")
    }

    // MARK: - Settings of its own

    func testThatItsBaseURLAndTimeoutOverrideTheClients() async {
        server.route("/slow") { _ in .stall }
        let client = makeClient { $0.baseURL = URL(string: "http://127.0.0.1:9") }
        var here = Endpoint<Echo>(path: "/echo")
        here.baseURL = server.baseURL
        let echo = await client.send(here)
        XCTAssertEqual(echo.value?.path, "/echo", "\(echo)")

        var slow = Endpoint<Empty>(path: "/slow")
        slow.baseURL = server.baseURL
        slow.totalTimeout = 0.3
        let started = Date()
        let result = await client.send(slow)
        XCTAssertEqual(result.transportReason, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testThatHandlesAndPluginsNameTheEndpointByItsType() {
        let plugin = EndpointNames()
        let client = makeClient { $0.plugins = [plugin] }
        let done = expectation(description: "done")
        let handle = client.send(Endpoint<[Item]>(path: "/echo")) { _ in done.fulfill() }
        XCTAssertEqual(handle.endpoint, "Endpoint<Array<Item>>")
        wait(for: [done], timeout: 10)
        XCTAssertEqual(plugin.names.value, ["Endpoint<Array<Item>>"])
    }

    /// A subclass started with `start(with:)` is named by its own class, not `BaseRequest<Echo>`.
    @MainActor
    func testThatASubclassIsNamedByItsOwnClass() async {
        let plugin = EndpointNames()
        let client = makeClient { $0.plugins = [plugin] }
        let done = expectation(description: "done")
        let handle = EchoSubclass().start(with: client) { _ in done.fulfill() }
        XCTAssertEqual(handle.endpoint, "EchoSubclass")
        await fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(plugin.names.value, ["EchoSubclass"])
    }

    // MARK: - The guide's example (Docs/GettingStarted.md, "One-off requests")

    private struct Repo: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    private struct Avatar: Sendable {
        let bytes: Int
        init(png: Data) throws {
            guard png.starts(with: [0x89, 0x50]) else { throw CocoaError(.fileReadCorruptFile) }
            bytes = png.count
        }
    }

    func testThatTheGuidesExampleWorks() async throws {
        server.route("/search") { request in
            .json([["id": 1, "name": request.queryValue("q") ?? "", "page": request.queryValue("page") ?? ""]])
        }
        server.route("/repos") { request in .json(["id": 2, "name": request.method], status: 201) }
        server.route("/repos/*") { request in
            request.header("X-Confirm") == "yes"
                ? .json(["status": 200, "result": NSNull()]) : .json(["status": 403, "errMsg": "Say yes"])
        }
        server.route("/me/avatar") { _ in .response(status: 200, headers: [], body: Data([0x89, 0x50, 0x4E, 0x47])) }
        let client: APIClient = client
        let id = 7

        let repos = try await client.value(
            for: Endpoint<[Repo]>(path: "/search", parameters: .query(["q": "swift", "page": 1])))

        let created = await client.send(
            Endpoint<Repo>(method: .post, path: "/repos", parameters: .json(["name": "demo"])))

        var remove = Endpoint<Empty>(method: .delete, path: "/repos/\(id)", headers: ["X-Confirm": "yes"])
        remove.envelope = .statusResult()  // also: baseURL, idleTimeout, totalTimeout
        let removed = await withCheckedContinuation { continuation in
            client.send(remove) { result in continuation.resume(returning: result) }
        }

        let avatar = Endpoint<Avatar>(method: .get, path: "/me/avatar") { context in try Avatar(png: context.data) }

        XCTAssertEqual(repos, [Repo(id: 1, name: "swift")])
        XCTAssertEqual(created.value, Repo(id: 2, name: "POST"))
        XCTAssertEqual(created.metadata?.statusCode, 201)
        XCTAssertEqual(removed.value, Empty())
        let fetched = try await client.value(for: avatar)
        XCTAssertEqual(fetched.bytes, 4)
        remove.headers = HTTPHeaders.empty
        let refused = await client.send(remove)
        XCTAssertEqual(refused.serverFailure?.message, "Say yes")
    }

    /// Sends through the closure API from an async test.
    private func sendThroughClosure<Request: APIRequest>(_ request: Request) async -> APIResult<Request.Response> {
        let client: APIClient = client
        return await withCheckedContinuation { continuation in
            client.send(request) { continuation.resume(returning: $0) }
        }
    }
}
