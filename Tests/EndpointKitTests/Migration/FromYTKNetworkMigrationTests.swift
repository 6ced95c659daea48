// The complete example of Docs/Migration/FromYTKNetwork.md (and its Chinese twin), copied
// verbatim below its imports (keep them in sync: when the guide's example changes, copy it here),
// then run against the loopback server.

import EndpointKit
import EndpointKitComposition
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

nonisolated struct UserInfo: Decodable, Sendable {
    let id: Int
    let nick: String
}

nonisolated struct Session: Decodable, Sendable {
    let userID: Int
    let token: String
}

/// GET with a three-minute cache that a new app version invalidates.
nonisolated final class GetUserInfoApi: BaseRequest<UserInfo> {
    let userID: Int
    init(userID: Int) { self.userID = userID }
    override var path: RequestPath { "/iphone/users" }
    override var parameters: RequestParameters { ["id": QueryValue(userID)] }
    override var cachePolicy: CachePolicy? { CachePolicy(lifetime: 180, version: 2) }
}

/// POST with a JSON body and a 10-second idle timeout.
nonisolated final class RegisterApi: BaseRequest<Session> {
    let username: String
    let password: String
    init(username: String, password: String) {
        self.username = username
        self.password = password
    }
    override var method: HTTPMethod { .post }
    override var path: RequestPath { "/iphone/register" }
    override var parameters: RequestParameters {
        .json(["username": .string(username), "password": .string(password)])
    }
    override var idleTimeout: TimeInterval? { 10 }
}

/// A GET with a parameterless initializer.
nonisolated final class GetBannersApi: BaseRequest<[String]> {
    override init() {}
    override var path: RequestPath { "/iphone/banners" }
}

/// A resumable download: a broken transfer continues where it stopped on the next send.
struct DownloadVideoApi: DownloadRequest {
    let file: URL
    var path: RequestPath { "/videos/intro.mp4" }
    var destination: DownloadDestination { .file(file, replacingExisting: true) }
}

@MainActor final class ProfileViewModel {
    let client: APIClient
    /// What the screen shows, in order.
    private(set) var shown: [String] = []

    init(
        baseURL: URL? = URL(string: "https://yuantiku.example.com"),
        cacheFolder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("api")
    ) {
        client = APIClient(baseURL: baseURL) {
            $0.cache = ResponseCache(directory: cacheFolder)  // what cacheTimeInSeconds needs
            $0.commonParameters = ["version": "5.2"]  // what a YTKUrlArgumentsFilter added
        }
    }

    func show(_ line: String) {
        shown.append(line)
        print(line)
    }

    func loadUser() {
        // YTK's start: a fresh cached answer comes without asking the network.
        GetUserInfoApi(userID: 7).start(with: client) { result in
            if case .success(let user, let metadata) = result { self.show("\(user.nick) \(metadata.source)") }
        }
    }

    func refreshUser() {
        // loadCacheWithError + start: the cached answer first (if any), then always the network's.
        client.send(
            GetUserInfoApi(userID: 7),
            cached: { cached in
                self.show("cached \(cached.value?.nick ?? "-")")
            },
            completion: { result in
                self.show("fresh \(result.value?.nick ?? "-")")
            })
    }

    func register() {
        let api = RegisterApi(username: "ada", password: "secret")
        api.start(with: client) { result in
            switch result {
            case .success(let session, _): self.show("token \(session.token)")
            case .serverFailure(let failure): self.show("refused \(failure.statusCode) \(failure.message ?? "")")
            case .transportError(let error): self.show("no answer \(error.reason)")
            }
        }
    }

    func loadHome() async throws {
        // YTKBatchRequest: several requests, one completion, typed results in order.
        let batch = await client.send(RequestBatch(GetUserInfoApi(userID: 7), GetBannersApi()))
        let (user, banners) = try batch.values()
        show("\(user.nick) \(banners.count) banners")

        // YTKChainRequest: each step builds the next request from the previous value.
        let chain = RequestChain(RegisterApi(username: "bo", password: "pw"))
            .then { session in GetUserInfoApi(userID: session.userID) }
        show("chain \(try await client.send(chain).result.get().nick)")
    }

    func downloadIntro(to file: URL) {
        client.send(DownloadVideoApi(file: file), progress: { print($0.bytesReceived) }) { result in
            self.show(result.value?.lastPathComponent ?? "failed; the next send resumes")
        }
    }
}

// MARK: - Tests
final class FromYTKNetworkMigrationTests: LoopbackTestCase {
    private var cacheFolder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("ytk-\(UUID().uuidString)")
    }

    override func tearDown() {
        if let cacheFolder { try? FileManager.default.removeItem(at: cacheFolder) }
        super.tearDown()
    }

    private func routeUsers(_ inbox: Inbox) {
        server.route("/iphone/users") { request in
            inbox.record(request)
            let id = request.queryValue("id") ?? "0"
            return .json(string: #"{"id":\#(id),"nick":"user\#(id)"}"#)
        }
    }

    @MainActor func testThatStartAnswersFromAFreshCacheButRefreshAsksTheNetworkToo() async throws {
        // GIVEN the example's view model on the loopback server
        let users = Inbox()
        routeUsers(users)
        let model = ProfileViewModel(baseURL: server.baseURL, cacheFolder: cacheFolder)

        // WHEN it loads the user twice (YTK's start), then refreshes (loadCacheWithError + start)
        model.loadUser()
        let first = await eventually { model.shown.count == 1 }
        XCTAssertTrue(first)
        model.loadUser()
        let second = await eventually { model.shown.count == 2 }
        XCTAssertTrue(second)
        model.refreshUser()
        let refreshed = await eventually { model.shown.count == 4 }
        XCTAssertTrue(refreshed)

        // THEN the second load came from the cache, and the refresh showed it, then asked the server
        XCTAssertEqual(model.shown[0], "user7 network")
        XCTAssertTrue(model.shown[1].hasPrefix("user7 cache"), model.shown[1])
        XCTAssertEqual(Array(model.shown[2...]), ["cached user7", "fresh user7"])
        XCTAssertEqual(users.requests.count, 2, "one for the first start, one for the refresh")
        XCTAssertEqual(users.requests.first?.queryValue("id"), "7")
        XCTAssertEqual(users.requests.first?.queryValue("version"), "5.2", "the common parameter")
    }

    @MainActor func testThatRegisterSendsJSONAndHomeRunsTheBatchAndTheChain() async throws {
        // GIVEN a server for registration, users and banners
        let users = Inbox()
        let registrations = Inbox()
        routeUsers(users)
        server.route("/iphone/register") { request in
            registrations.record(request)
            return .json(string: #"{"userID":9,"token":"t-9"}"#)
        }
        server.route("/iphone/banners") { _ in .json(string: #"["a","b","c"]"#) }
        let model = ProfileViewModel(baseURL: server.baseURL, cacheFolder: cacheFolder)

        // WHEN it registers, then loads home (a batch, then a chain: register, then that user)
        model.register()
        let registered = await eventually { model.shown.count == 1 }
        XCTAssertTrue(registered)
        try await model.loadHome()

        // THEN each step showed its typed value, and the server got the JSON bodies
        XCTAssertEqual(model.shown, ["token t-9", "user7 3 banners", "chain user9"])
        let bodies = try registrations.requests.map {
            try JSONSerialization.jsonObject(with: $0.body) as? [String: String]
        }
        XCTAssertEqual(bodies, [["username": "ada", "password": "secret"], ["username": "bo", "password": "pw"]])
        XCTAssertEqual(registrations.requests.first?.header("Content-Type")?.hasPrefix("application/json"), true)
        XCTAssertEqual(users.requests.compactMap { $0.queryValue("id") }, ["7", "9"])
    }

    @MainActor func testThatTheDownloadLandsInItsFile() async throws {
        // GIVEN a video on the server and a destination in an existing folder
        let video = TestServer.patternBytes(count: 64 * 1024)
        server.route("/videos/intro.mp4") { _ in
            .response(status: 200, headers: [("Content-Type", "video/mp4")], body: video)
        }
        let model = ProfileViewModel(baseURL: server.baseURL, cacheFolder: cacheFolder)
        try FileManager.default.createDirectory(at: cacheFolder, withIntermediateDirectories: true)
        let file = cacheFolder.appendingPathComponent("intro.mp4")

        // WHEN the example downloads it
        model.downloadIntro(to: file)
        let done = await eventually { !model.shown.isEmpty }

        // THEN the file holds the body
        XCTAssertTrue(done)
        XCTAssertEqual(model.shown, ["intro.mp4"])
        XCTAssertEqual(try Data(contentsOf: file), video)
    }
}
