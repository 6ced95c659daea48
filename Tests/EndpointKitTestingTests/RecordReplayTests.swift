import EndpointKit
import EndpointKitTestServer
import EndpointKitTesting
import Foundation
import XCTest

/// Record against the loopback server, stop it, replay from the files; and every way a fixture
/// can be missing or broken.
final class RecordReplayTests: XCTestCase {
    private let folder = temporaryFolder()
    private var server: TestServer?

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func startServer() throws -> TestServer {
        let server = try TestServer()
        self.server = server
        server.route("/profiles/*") { request in
            .json(
                ["id": 7, "name": "Ada", "access_token": "response-secret"],
                headers: [("Set-Cookie", "session=cookie-secret"), ("X-Trace", "t1")])
        }
        server.route("/search") { request in .json([["id": 1, "name": request.queryValue("q") ?? ""]]) }
        server.route("/login") { request in .json(["user": request.formFields.first?.value ?? ""]) }
        return server
    }

    private func transport(_ mode: RecordReplayTransport.Mode) -> RecordReplayTransport {
        RecordReplayTransport(directory: folder, mode: mode)
    }

    func testThatRecordedExchangesReplayWithTheServerStopped() async throws {
        // Given: a recording against the loopback server
        let server = try startServer()
        let recorder = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        let recorded = try await recorder.value(for: GetProfile(id: 7))
        let found = try await recorder.value(for: SearchProfiles(term: "swift"))
        let login = try await recorder.value(for: Login(user: "ada", password: "hunter2"))
        let bytes = try await recorder.value(for: GetBytes())

        // When: the server is gone and the fixtures are replayed
        server.stop()
        let replayer = makeClient(transport(.replay), baseURL: server.baseURL.absoluteString)
        let replayed = try await replayer.value(for: GetProfile(id: 7))

        // Then
        XCTAssertEqual(recorded, Profile(id: 7, name: "Ada"))
        XCTAssertEqual(replayed, recorded)
        let replayedSearch = try await replayer.value(for: SearchProfiles(term: "swift"))
        let replayedLogin = try await replayer.value(for: Login(user: "ada", password: "hunter2"))
        let replayedBytes = try await replayer.value(for: GetBytes())
        XCTAssertEqual(replayedSearch, found)
        XCTAssertEqual(replayedLogin, login)
        XCTAssertEqual(replayedBytes, bytes)
        XCTAssertEqual(bytes, TestServer.patternBytes(count: 16))
    }

    func testThatFixturesAreStableReadableAndRedacted() async throws {
        let server = try startServer()
        let client = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        _ = await client.send(UpdateProfileOnServer(id: 7))
        _ = await client.send(SearchProfiles(term: "swift"))
        _ = await client.send(Login(user: "ada", password: "hunter2"))
        _ = await client.send(GetBytes())

        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names.count, 4)
        let put = try XCTUnwrap(names.first { $0.hasPrefix("PUT_profiles_7-") }, "\(names)")
        XCTAssertTrue(names.contains("GET_bytes_16.json"), "\(names)")
        XCTAssertTrue(names.contains { $0.hasPrefix("GET_search-") && $0.count == "GET_search-12345678.json".count })

        var everything = ""
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("{\n  \"request\" : {\n"), text)
            XCTAssertTrue(text.hasSuffix("\n  \"version\" : 1\n}\n"), text)
            everything += text
        }
        for secret in ["secret-token", "query-secret", "hunter2", "cookie-secret", "response-secret"] {
            XCTAssertFalse(everything.contains(secret), "\(secret) was written to a fixture")
        }
        let profile = try String(contentsOf: folder.appendingPathComponent(put), encoding: .utf8)
        XCTAssertTrue(profile.contains(#""Authorization" : "REDACTED""#), profile)
        XCTAssertTrue(profile.contains(#""Set-Cookie" : "REDACTED""#), profile)
        XCTAssertTrue(profile.contains(#"\"access_token\":\"REDACTED\""#), profile)
        let bytes = try String(contentsOf: folder.appendingPathComponent("GET_bytes_16.json"), encoding: .utf8)
        XCTAssertTrue(bytes.contains(#""bodyBase64" : "AAECAwQFBgcICQoLDA0ODw==""#), bytes)
    }

    func testThatMultipartUploadsReplayDespiteTheirRandomBoundary() async throws {
        let server = try TestServer()
        self.server = server
        server.route("/upload") { request in .json(["id": request.body.count, "name": "uploaded"]) }
        let recorder = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        let recorded = try await recorder.value(for: UploadPhoto())
        let streamed = try await recorder.value(for: UploadPhoto(inMemoryThreshold: 16))
        server.stop()

        let replayer = makeClient(transport(.replay), baseURL: server.baseURL.absoluteString)
        let replayed = try await replayer.value(for: UploadPhoto())
        let replayedStreamed = try await replayer.value(for: UploadPhoto(inMemoryThreshold: 16))
        XCTAssertEqual(replayed, recorded)
        XCTAssertEqual(replayedStreamed, streamed)
        // In memory or from a file, with different boundaries, the body names the same fixture;
        // the second send of it is the second occurrence.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names.count, 2)
        XCTAssertEqual(Set(names.map { $0.replacingOccurrences(of: ".2.json", with: ".json") }).count, 1, "\(names)")
    }

    func testThatADownloadReplaysIntoItsFileWithProgress() async throws {
        let server = try TestServer()
        self.server = server
        let recorded = folder.appendingPathComponent("recorded.bin")
        let replayed = folder.appendingPathComponent("replayed.bin")
        let recorder = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        let recordedFile = try await recorder.value(for: DownloadBytes(destination: .file(recorded)))
        XCTAssertEqual(recordedFile, recorded)
        server.stop()

        let progress = Collector<TransferProgress>()
        let done = expectation(description: "replayed")
        let replayer = makeClient(transport(.replay), baseURL: server.baseURL.absoluteString)
        replayer.send(DownloadBytes(destination: .file(replayed)), progress: { progress.append($0) }) { result in
            XCTAssertEqual(result.value, replayed)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(try Data(contentsOf: replayed), TestServer.patternBytes(count: 16))
        XCTAssertEqual(try Data(contentsOf: recorded), TestServer.patternBytes(count: 16))
        XCTAssertEqual(progress.values.last?.fractionCompleted, 1)
    }

    func testThatRecordModeAnswersAsReplayWill() async throws {
        let server = try startServer()
        let client = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        let recorded = try await client.value(for: Raw(path: "/profiles/1"))
        XCTAssertEqual(recorded["access_token"], "REDACTED")
    }

    func testThatIdenticalRequestsAreNumberedAndReplayedInOrder() async throws {
        let server = try TestServer()
        self.server = server
        let counter = Counter()
        server.route("/profiles/*") { _ in .json(["id": counter.next(), "name": "call"]) }
        let recorder = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        for _ in 0..<2 { _ = await recorder.send(GetProfile(id: 1)) }
        server.stop()

        let replayer = makeClient(transport(.replay), baseURL: server.baseURL.absoluteString)
        let first = try await replayer.value(for: GetProfile(id: 1))
        let second = try await replayer.value(for: GetProfile(id: 1))
        let third = await replayer.send(GetProfile(id: 1))
        XCTAssertEqual([first.id, second.id], [1, 2])
        XCTAssertTrue(third.transportError?.message.contains("GET_profiles_1.3.json") == true)
    }

    func testThatAMissingFixtureFailsWithThePathItLookedFor() async {
        let replay = transport(.replay)
        let client = makeClient(replay)
        let result = await client.send(GetProfile(id: 7))
        let expectedPath = folder.appendingPathComponent("GET_profiles_7.json").path
        XCTAssertEqual(
            result.transportError?.message,
            "No fixture for GET https://api.test/profiles/7 at \(expectedPath). Record it by running the test with "
                + "ENDPOINTKIT_RECORD=1 against a server.")
        XCTAssertEqual(
            result.transportError?.underlyingError as? FixtureError,
            FixtureError(.missing, path: expectedPath, request: "GET https://api.test/profiles/7"))
        XCTAssertEqual(
            replay.fixtureURL(for: try XCTUnwrap(client.urlRequest(for: GetProfile(id: 7)))).path, expectedPath)
    }

    func testThatMalformedFixturesFailNamingTheFileAndTheProblem() async throws {
        let valid =
            #"{"version":1,"request":{"method":"GET","url":"u","headers":{}},"response":{"status":200,"headers":{}}}"#
        let cases: [(content: String, problem: String)] = [
            ("{ not json", "the file is not valid JSON"),
            (
                #"{"version":1,"request":{"method":"GET","url":"u","headers":{}}}"#,
                #"missing key "response" in the top level"#
            ),
            (
                valid.replacingOccurrences(of: #""status":200"#, with: #""status":"200""#),
                "response.status should be Int"
            ),
            (
                valid.replacingOccurrences(of: #""status":200"#, with: #""status":42"#),
                "response.status 42 is not an HTTP status"
            ),
            (valid.replacingOccurrences(of: #""version":1"#, with: #""version":9"#), "unsupported version 9"),
            (
                valid.replacingOccurrences(of: #""headers":{}}}"#, with: #""headers":{},"bodyBase64":"%%"}}"#),
                "response.bodyBase64 is not valid base64"
            ),
            (
                valid.replacingOccurrences(
                    of: #""headers":{}}}"#, with: #""headers":{},"body":"a","bodyBase64":"YQ=="}}"#),
                "response has both body and bodyBase64"
            ),
            ("", "the file is not valid JSON"),
        ]
        let file = folder.appendingPathComponent("GET_profiles_7.json")
        for (content, problem) in cases {
            try Data(content.utf8).write(to: file)
            // A new transport each time, so that each send reads the first occurrence's file.
            let message = await makeClient(transport(.replay)).send(GetProfile(id: 7)).transportError?.message ?? ""
            XCTAssertTrue(
                message.hasPrefix("Malformed fixture \(file.path) (for GET https://api.test/profiles/7): "), message)
            XCTAssertTrue(message.contains(problem), "\(problem) not in: \(message)")
        }
    }

    func testThatRecordingPassesTransportErrorsThroughAndWritesNothing() async throws {
        let server = try TestServer()
        self.server = server
        server.route("/profiles/*") { _ in .close }
        let client = makeClient(transport(.record), baseURL: server.baseURL.absoluteString)
        let result = await client.send(GetProfile(id: 1))
        XCTAssertNotNil(result.transportError)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testThatAnUnwritableFolderFailsTheRecording() async throws {
        let server = try startServer()
        let blocker = folder.appendingPathComponent("file")
        try Data().write(to: blocker)
        let recorder = RecordReplayTransport(directory: blocker.appendingPathComponent("sub"), mode: .record)
        let result = await makeClient(recorder, baseURL: server.baseURL.absoluteString).send(GetProfile(id: 1))
        let message = result.transportError?.message ?? ""
        XCTAssertTrue(message.hasPrefix("Could not write fixture \(blocker.path)/sub/GET_profiles_1.json"), message)
    }

    func testThatTheModeComesFromTheEnvironment() {
        XCTAssertEqual(RecordReplayTransport.Mode.fromEnvironment([:]), .replay)
        XCTAssertEqual(RecordReplayTransport.Mode.fromEnvironment(["ENDPOINTKIT_RECORD": "0"]), .replay)
        for value in ["1", "true", "YES"] {
            XCTAssertEqual(RecordReplayTransport.Mode.fromEnvironment(["ENDPOINTKIT_RECORD": value]), .record)
        }
    }

    func testThatFixtureNamesCanBeChosenAndFoldersSitNextToTheTest() async throws {
        let named = RecordReplayTransport(directory: folder, mode: .replay, fixtureName: { _ in "custom" })
        let result = await makeClient(named).send(GetProfile(id: 1))
        XCTAssertTrue(result.transportError?.message.contains("/custom.json") == true)
        let next = RecordReplayTransport.fixtures("Case")
        XCTAssertEqual(next.path, fixturesFolder.appendingPathComponent("Case").path)
    }
}

/// A PUT carrying an Authorization header and a secret in its JSON body.
private struct UpdateProfileOnServer: APIRequest {
    typealias Response = JSONValue
    let id: Int
    var method: HTTPMethod { .put }
    var path: RequestPath { "/profiles/\(id)" }
    var headers: HTTPHeaders { ["Authorization": "Bearer secret-token"] }
    var parameters: RequestParameters { .json(["name": "Ada", "password": "hunter2"]) }
}

private struct Raw: APIRequest {
    typealias Response = [String: JSONValue]
    let path: RequestPath
}

/// Counts calls from any thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
