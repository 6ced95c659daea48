import EndpointKit
import EndpointKitTesting
import Foundation
import Testing

/// Sample responses declared next to the endpoint, answered by StubTransport.
@Suite struct SampleResponseTests {
    @Test func aStubCanAnswerWithTheEndpointsSample() async throws {
        let stubs = StubTransport()
        stubs.stub(.request(GetProfile.self), with: .sample)
        let profile = try await makeClient(stubs).value(for: GetProfile(id: 3))
        #expect(profile == Profile(id: 3, name: "Sample"))
    }

    @Test func aStubCanAnswerWithANamedSampleInASequence() async {
        let stubs = StubTransport()
        stubs.stub(.request(GetProfile.self), sequence: [.sample("missing"), .sample])
        let client = makeClient(stubs)
        let first = await client.send(GetProfile(id: 3))
        let second = await client.send(GetProfile(id: 3))
        #expect(first.serverFailure?.statusCode == 404)
        #expect(second.value?.name == "Sample")
    }

    @Test func theSampleCanAnswerWithAnotherStatusKeepingItsBody() async {
        let stubs = StubTransport()
        stubs.stub(
            .request(GetProfile.self), sequence: [.sample(status: 401), .sample("missing", status: 410), .sample])
        let client = makeClient(stubs)
        let unauthorized = await client.send(GetProfile(id: 3)).serverFailure
        let gone = await client.send(GetProfile(id: 3)).serverFailure
        let sample = await client.send(GetProfile(id: 3)).value
        #expect(unauthorized?.statusCode == 401)
        #expect(unauthorized.map { String(decoding: $0.metadata.data, as: UTF8.self) } == #"{"id":3,"name":"Sample"}"#)
        #expect(gone?.statusCode == 410)
        #expect(gone.map { String(decoding: $0.metadata.data, as: UTF8.self) } == "no such profile")
        #expect(sample == Profile(id: 3, name: "Sample"), "the sample itself keeps its status")
    }

    @Test func unmatchedRequestsFallBackToSamplesWhenAsked() async {
        let stubs = StubTransport(answersFromSamples: true)
        stubs.stub(.request(GetProfile.self, where: { $0.id == 1 }), with: .json(#"{"id":1,"name":"stubbed"}"#))
        let client = makeClient(stubs)
        #expect(await client.send(GetProfile(id: 1)).value?.name == "stubbed")
        #expect(await client.send(GetProfile(id: 2)).value?.name == "Sample")
        let noSample = await client.send(SearchProfiles(term: "x"))
        #expect(noSample.transportError?.message.contains("The endpoint has no sample response.") == true)
    }

    /// The demo client of Docs/Testing.md: no base URL anywhere, the samples answer.
    @Test func aClientWithoutABaseURLIsAnsweredByItsStubs() async throws {
        let stubs = StubTransport(answersFromSamples: true)
        let demo = APIClient(configuration: APIClient.Configuration(baseURL: nil, transport: stubs))
        let profile = try await demo.value(for: GetProfile(id: 4))
        #expect(profile == Profile(id: 4, name: "Sample"))
        #expect(stubs.recordedRequests.first?.url?.absoluteString == "https://stubs.invalid/profiles/4")

        // a path stub sees the endpoint's path, and a base URL of the client's own still wins
        stubs.stub(.path("/profiles/5"), with: .json(#"{"id":5,"name":"by path"}"#))
        #expect(try await demo.value(for: GetProfile(id: 5)).name == "by path")
        let named = APIClient(configuration: .init(baseURL: URL(string: "https://api.example"), transport: stubs))
        _ = await named.send(GetProfile(id: 6))
        #expect(stubs.recordedRequests.last?.url?.host == "api.example")
    }

    @Test func subclassRequestsDeclareSamplesToo() async {
        let stubs = StubTransport(answersFromSamples: true)
        let result = await makeClient(stubs).send(ProfileRequest(profileID: 9))
        #expect(result.value == Profile(id: 9, name: "Subclass sample"))
    }

    @Test func aSampleDelayMeetsTheDeadline() async {
        let stubs = StubTransport()
        stubs.stub(.anyRequest, with: .sample("slow"))
        let result = await makeClient(stubs) { $0.timeouts.total = 0.2 }.send(GetProfile(id: 1))
        #expect(result.transportError?.reason == .timedOut)
    }

    @Test func missingSamplesFailWithAnExplanation() async {
        let stubs = StubTransport()
        stubs.stub(.request(GetProfile.self), with: .sample("unknown"))
        stubs.stub(.request(SearchProfiles.self), with: .sample)
        let client = makeClient(stubs)
        let unknown = await client.send(GetProfile(id: 1)).transportError?.message
        let none = await client.send(SearchProfiles(term: "x")).transportError?.message
        #expect(unknown == #"GetProfile has no sample named "unknown". Samples: missing, slow."#)
        #expect(none?.hasPrefix("SearchProfiles has no sample response: adopt SampleResponseProviding") == true)
    }
}
