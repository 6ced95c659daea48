@_spi(Internal) import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// StubTransport: matching, responses, sequences, precedence, recording, and the transport
/// contract (deadline, cancel, size cap).
final class StubTransportTests: XCTestCase {
    private var stubs = StubTransport()
    private lazy var client = makeClient(stubs)

    func testThatRequestTypeStubsAnswerOnlyThatType() async throws {
        // Given
        stubs.stub(.request(GetProfile.self), with: .json(#"{"id":7,"name":"Ada"}"#))
        // When
        let profile = try await client.value(for: GetProfile(id: 7))
        let other = await client.send(SearchProfiles(term: "x"))
        // Then
        XCTAssertEqual(profile, Profile(id: 7, name: "Ada"))
        XCTAssertEqual(other.transportError?.reason, .other)
    }

    func testThatTypedPredicatesSeeTheEndpointValue() async throws {
        stubs.stub(.request(GetProfile.self, where: { $0.id == 7 }), with: .json(#"{"id":7,"name":"Ada"}"#))
        let seven = try await client.value(for: GetProfile(id: 7))
        let eight = await client.send(GetProfile(id: 8))
        XCTAssertEqual(seven.name, "Ada")
        XCTAssertTrue(eight.transportError?.message.contains("GetProfile where ...") == true)
    }

    func testThatPathStubsMatchTheEndpointPathTheFullPathAndPrefixes() async throws {
        let client = makeClient(stubs, baseURL: "https://api.test/v1")
        stubs.stub(.path("/profiles/1"), with: .json(#"{"id":1,"name":"endpoint path"}"#))
        stubs.stub(.path("/v1/profiles/2", method: .get), with: .json(#"{"id":2,"name":"full path"}"#))
        stubs.stub(.path("/profiles/3*"), with: .json(#"{"id":3,"name":"prefix"}"#))
        stubs.stub(.path("/profiles/4", method: .post), with: .json(#"{"id":4,"name":"wrong method"}"#))

        let first = try await client.value(for: GetProfile(id: 1))
        let second = try await client.value(for: GetProfile(id: 2))
        let third = try await client.value(for: GetProfile(id: 33))
        let fourth = await client.send(GetProfile(id: 4))
        XCTAssertEqual([first.name, second.name, third.name], ["endpoint path", "full path", "prefix"])
        XCTAssertNotNil(fourth.transportError)
    }

    func testThatPredicateStubsSeeTheBuiltRequest() async throws {
        stubs.stub(
            .matching("an authorized PUT") { $0.header("Authorization") != nil }, with: .json(#"{"id":1,"name":"ok"}"#))
        let updated = try await client.value(for: UpdateProfile(id: 1, name: "x"))
        XCTAssertEqual(updated.name, "ok")
    }

    func testThatEveryKindOfAnswerIsDelivered() async throws {
        stubs.stub(.path("/data"), with: .data(Data([1, 2, 3]), headers: ["X-Kind": "data"]))
        stubs.stub(.path("/literal"), with: .json(["id": 1, "name": "literal"], status: 201))
        stubs.stub(.path("/encoded"), with: .json(encoding: Profile(id: 2, name: "encoded")))
        stubs.stub(.path("/text"), with: .text("hello"))
        stubs.stub(.path("/missing"), with: .status(404, body: "no such thing"))
        stubs.stub(.path("/offline"), with: .failure(.notConnected))
        stubs.stub(.path("/file"), with: .fixture(fixturesFolder.appendingPathComponent("profile.json")))

        let data = await client.send(Raw<Data>(path: "/data"))
        XCTAssertEqual(data.value, Data([1, 2, 3]))
        XCTAssertEqual(data.metadata?.header("X-Kind"), "data")
        let literal = await client.send(Raw<Profile>(path: "/literal"))
        XCTAssertEqual(literal.value?.name, "literal")
        XCTAssertEqual(literal.metadata?.statusCode, 201)
        XCTAssertEqual(literal.metadata?.header("Content-Type"), "application/json")
        let encoded = try await client.value(for: Raw<Profile>(path: "/encoded"))
        XCTAssertEqual(encoded, Profile(id: 2, name: "encoded"))
        let text = try await client.value(for: Raw<String>(path: "/text"))
        XCTAssertEqual(text, "hello")
        let missing = await client.send(Raw<Profile>(path: "/missing"))
        XCTAssertEqual(missing.serverFailure?.statusCode, 404)
        XCTAssertEqual(missing.serverFailure?.bodyText, "no such thing")
        let offline = await client.send(Raw<Profile>(path: "/offline"))
        XCTAssertEqual(offline.transportError?.reason, .notConnected)
        let file = try await client.value(for: Raw<Profile>(path: "/file"))
        XCTAssertEqual(file, Profile(id: 42, name: "From a file"))
    }

    func testThatAFixtureFileThatCannotBeReadFailsWithItsPath() async {
        let path = fixturesFolder.appendingPathComponent("does-not-exist.json")
        stubs.stub(.anyRequest, with: .fixture(path))
        let result = await client.send(GetProfile(id: 1))
        XCTAssertTrue(result.transportError?.message.contains(path.path) == true, "\(result)")
    }

    func testThatASequenceFailsTwiceThenSucceedsAndKeepsSucceeding() async {
        stubs.stub(
            .request(GetProfile.self),
            sequence: [.failure(.timedOut), .status(503), .json(#"{"id":1,"name":"at last"}"#)])
        var outcomes: [String] = []
        for _ in 0..<4 {
            switch await client.send(GetProfile(id: 1)) {
            case .success(let profile, _): outcomes.append(profile.name)
            case .serverFailure(let failure): outcomes.append("\(failure.statusCode)")
            case .transportError(let error): outcomes.append("\(error.reason)")
            }
        }
        XCTAssertEqual(outcomes, ["timedOut", "503", "at last", "at last"])
    }

    func testThatTheMostRecentMatchingStubWins() async throws {
        stubs.stub(.anyRequest, with: .status(500))
        stubs.stub(.request(GetProfile.self), with: .json(#"{"id":0,"name":"general"}"#))
        stubs.stub(.request(GetProfile.self, where: { $0.id == 7 }), with: .json(#"{"id":7,"name":"specific"}"#))
        let specific = try await client.value(for: GetProfile(id: 7))
        let general = try await client.value(for: GetProfile(id: 8))
        XCTAssertEqual([specific.name, general.name], ["specific", "general"])

        stubs.stub(.request(GetProfile.self), with: .json(#"{"id":0,"name":"replaced"}"#))
        let replaced = try await client.value(for: GetProfile(id: 7))
        XCTAssertEqual(replaced.name, "replaced")
    }

    func testThatRejectAmbiguousFailsNamingTheStubsThatMatch() async {
        let stubs = StubTransport(precedence: .rejectAmbiguous)
        let client = makeClient(stubs)
        stubs.stub(.request(GetProfile.self), with: .json("{}"))
        stubs.stub(.path("/profiles/7", method: .get), with: .json("{}"))
        let result = await client.send(GetProfile(id: 7))
        let message = result.transportError?.message ?? ""
        XCTAssertTrue(message.contains("2 stubs match GET https://api.test/profiles/7"), message)
        XCTAssertTrue(message.contains("GetProfile, GET /profiles/7"), message)
    }

    func testThatAnUnmatchedRequestNamesItselfAndEveryStub() async {
        stubs.stub(.request(SearchProfiles.self), with: .json("[]"))
        stubs.stub(.post, "/other", json: "{}")
        let result = await client.send(GetProfile(id: 7))
        XCTAssertEqual(
            result.transportError?.message,
            "No stub matches GET https://api.test/profiles/7 (GetProfile). Stubs: SearchProfiles, POST /other.")
    }

    func testThatEveryRequestIsRecordedWithItsEndpoint() async {
        stubs.stub(.request(GetProfile.self), with: .json(#"{"id":1,"name":"a"}"#))
        _ = await client.send(GetProfile(id: 1))
        _ = await client.send(SearchProfiles(term: "unmatched"))
        _ = await client.send(GetProfile(id: 2))

        XCTAssertEqual(stubs.recordedRequests.count, 3)
        XCTAssertEqual(stubs.endpoints(of: GetProfile.self).map(\.id), [1, 2])
        XCTAssertEqual(stubs.recordedRequests(matching: .path("/search")).first?.queryValue("q"), "unmatched")
        XCTAssertEqual(
            stubs.recordedRequests.map { $0.urlRequest.url?.path }, ["/profiles/1", "/search", "/profiles/2"])
        XCTAssertEqual(
            stubs.recordedRequests[1].description,
            "GET https://api.test/search?q=unmatched&page=1&access_token=query-secret (SearchProfiles)")
    }

    func testThatRemovingStubsKeepsTheRecording() async {
        stubs.stub(.anyRequest, with: .json("{}"))
        _ = await client.send(GetProfile(id: 1))
        stubs.removeAllStubs()
        let result = await client.send(GetProfile(id: 1))
        XCTAssertTrue(result.transportError?.message.contains("Stubs: none.") == true)
        XCTAssertEqual(stubs.recordedRequests.count, 2)
    }

    func testThatADelayedAnswerStillArrives() async throws {
        stubs.stub(.anyRequest, with: .delayed(0.05, .json(#"{"id":1,"name":"later"}"#)))
        let profile = try await client.value(for: GetProfile(id: 1))
        XCTAssertEqual(profile.name, "later")
    }

    func testThatADelayLongerThanTheDeadlineTimesOut() async {
        let client = makeClient(stubs) { $0.timeouts.total = 0.2 }
        stubs.stub(.anyRequest, with: .delayed(60, .json("{}")))
        let result = await client.send(GetProfile(id: 1))
        XCTAssertEqual(result.transportError?.reason, .timedOut)
    }

    func testThatCancellingDuringADelayEndsAtOnce() async {
        stubs.stub(.anyRequest, with: .delayed(60, .json("{}")))
        let done = expectation(description: "cancelled")
        let handle = client.send(GetProfile(id: 1)) { result in
            XCTAssertEqual(result.transportError?.reason, .cancelled)
            done.fulfill()
        }
        handle.cancel()
        await fulfillment(of: [done], timeout: 5)
    }

    func testThatTheTransportItselfCompletesOnceWhenCancelled() {
        stubs.stub(.anyRequest, with: .delayed(60, .json("{}")))
        let done = expectation(description: "one completion")
        let request = TransportRequest(
            urlRequest: URLRequest(url: URL(fileURLWithPath: "/x")), maximumResponseSize: 100)
        let task = stubs.execute(request) { result in
            guard case .failure(let error) = result else { return XCTFail("\(result)") }
            XCTAssertEqual(error.reason, .cancelled)
            done.fulfill()
        }
        task.cancel()
        task.cancel()
        wait(for: [done], timeout: 5)
    }

    func testThatTheResponseSizeCapApplies() async {
        let client = makeClient(stubs) { $0.maximumResponseSize = 4 }
        stubs.stub(.anyRequest, with: .data(Data(count: 10)))
        let result = await client.send(GetBytes())
        XCTAssertEqual(result.transportError?.reason, .responseTooLarge(limit: 4))
    }

    @MainActor
    func testThatSubclassRequestsAreStubbedByType() async {
        stubs.stub(.request(ProfileRequest.self), with: .json(#"{"id":5,"name":"subclass"}"#))
        let request = ProfileRequest(profileID: 5)
        let done = expectation(description: "completion")
        request.start(with: client) { result in
            XCTAssertEqual(result.value?.name, "subclass")
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(stubs.endpoints(of: ProfileRequest.self).count, 1)
    }
}

/// An endpoint for any path and response type, for tests of the stub answers themselves.
private struct Raw<Response: Decodable & Sendable>: APIRequest {
    let path: RequestPath
}
