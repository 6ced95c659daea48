import EndpointKit
import EndpointKitTesting
import Foundation
import Testing

/// Endpoint contracts, checked from Swift Testing: what matches, what does not, and the diff.
@Suite struct EndpointContractTests {
    private let base = URL(string: "https://api.test/v1") ?? URL(fileURLWithPath: "/")

    @Test func aCompleteContractIsSatisfied() {
        let contract = EndpointContract(
            method: .put, url: "https://api.test/v1/profiles/7?notify=true", query: ["notify": true],
            headers: ["accept": "application/json", "Authorization": "Bearer secret-token"],
            absentHeaders: ["Cookie"], body: .json(["tags": ["a", "b"], "name": "Ada", "age": 36.0]))
        expectEndpoint(UpdateProfile(id: 7, name: "Ada"), matches: contract, baseURL: base)
    }

    @Test func queryOrderIsIgnoredUnlessAskedFor() {
        let request = SearchProfiles(term: "swift lang")
        let anyOrder = EndpointContract(
            url: "https://api.test/v1/search?page=1&access_token=query-secret&q=swift%20lang",
            query: ["page": 1, "q": "swift lang", "access_token": "query-secret"])
        #expect(anyOrder.check(request, baseURL: base).isSatisfied)

        let exact = EndpointContract(
            query: ["page": 1, "q": "swift lang", "access_token": "query-secret"], queryOrder: .exact)
        let report = exact.check(request, baseURL: base)
        #expect(report.mismatches.map(\.aspect) == [.query])
        #expect(
            report.mismatches.first?.diff == [
                "- page=1&q=swift lang&access_token=query-secret", "+ q=swift lang&page=1&access_token=query-secret",
            ])
    }

    @Test func aDifferentURLShowsBothAndTheQueryDiff() {
        let contract = EndpointContract(url: "https://api.test/v1/search?q=swift&page=2")
        let report = contract.check(SearchProfiles(term: "swift"), baseURL: base)
        #expect(report.mismatches.map(\.summary) == ["the query differs (in any order)"])
        #expect(
            report.mismatches.first?.diff == [
                "- https://api.test/v1/search?q=swift&page=2",
                "+ https://api.test/v1/search?q=swift&page=1&access_token=query-secret",
                "- page=2", "+ page=1", "+ access_token=query-secret",
            ])
        let otherPath = EndpointContract(url: "https://api.test/v2/search?q=swift&page=1&access_token=query-secret")
        #expect(
            otherPath.check(SearchProfiles(term: "swift"), baseURL: base).mismatches.first?.summary == "the URL differs"
        )
    }

    @Test func jsonBodiesCompareAsValuesAndDiffByPath() {
        let satisfied = EndpointContract(body: .json(#"{"age": 36.0, "tags": ["a","b"], "name": "Ada"}"#))
        #expect(satisfied.check(UpdateProfile(id: 1, name: "Ada"), baseURL: base).isSatisfied)

        let contract = EndpointContract(body: .json(["name": "Bob", "tags": ["a"], "role": "admin", "age": 36]))
        let report = contract.check(UpdateProfile(id: 1, name: "Ada"), baseURL: base)
        #expect(report.mismatches.map(\.summary) == ["the JSON differs"])
        #expect(
            report.mismatches.first?.diff == [
                #"- $.name: "Bob""#, #"+ $.name: "Ada""#, #"- $.role: "admin""#, #"+ $.tags[1]: "b""#,
            ])
    }

    @Test func theWholeMessageReadsAsADiff() {
        let contract = EndpointContract(method: .post, headers: ["X-Client": "ios"], body: .json(["name": "Bob"]))
        let report = contract.check(UpdateProfile(id: 1, name: "Ada"), baseURL: base)
        let expected = """
            UpdateProfile does not match its contract (3 mismatches; - expected, + actual):
              method: expected POST, got PUT
                - POST
                + PUT
              header "X-Client": missing
                - X-Client: ios
                + (no X-Client header)
              body: the JSON differs
                + $.age: 36
                - $.name: "Bob"
                + $.name: "Ada"
                + $.tags: ["a","b"]
              request: PUT https://api.test/v1/profiles/1?notify=true
            """
        #expect(report.description == expected)
    }

    @Test func formBodiesCompareDecodedFieldsInAnyOrder() {
        let login = Login(user: "ada lovelace", password: "p&ss")
        let contract = EndpointContract(method: .post, body: .form(["password": "p&ss", "user": "ada lovelace"]))
        #expect(contract.check(login, baseURL: base).isSatisfied)

        let ordered = EndpointContract(body: .form(["password": "p&ss", "user": "ada lovelace"], order: .exact))
        #expect(ordered.check(login, baseURL: base).mismatches.first?.summary == "the form fields differ")

        let asJSON = EndpointContract(body: .json(["user": "ada lovelace"]))
        let report = asJSON.check(login, baseURL: base)
        #expect(report.mismatches.map(\.aspect) == [.header("Content-Type"), .body])
    }

    @Test func headersMustBePresentEqualOrAbsent() {
        let contract = EndpointContract(
            headers: ["Accept": "text/plain", "X-Missing": "1"], absentHeaders: ["authorization"])
        let report = contract.check(UpdateProfile(id: 1, name: "Ada"), baseURL: base)
        #expect(report.mismatches.map(\.aspect) == [.header("Accept"), .header("X-Missing"), .header("authorization")])
        #expect(report.mismatches.map(\.summary) == ["different value", "missing", "should be absent"])
        #expect(report.mismatches[0].diff == ["- Accept: text/plain", "+ Accept: application/json"])
    }

    @Test func emptyTextAndByteBodies() {
        #expect(EndpointContract(body: .empty).check(GetProfile(id: 1), baseURL: base).isSatisfied)
        let notEmpty = EndpointContract(body: .empty).check(Login(user: "u", password: "p"), baseURL: base)
        #expect(notEmpty.mismatches.first?.diff == ["- (no body)", "+ user=u&password=p"])
        #expect(
            EndpointContract(body: .text("user=u&password=p")).check(Login(user: "u", password: "p"), baseURL: base)
                .isSatisfied)
        #expect(
            EndpointContract(body: .data(Data("x".utf8))).check(Login(user: "u", password: "p"), baseURL: base)
                .mismatches.count == 1)
    }

    @Test func invalidExpectationsAndUnbuildableRequestsAreMismatchesNotCrashes() {
        let invalid = EndpointContract(body: .json("{not json")).check(UpdateProfile(id: 1, name: "a"), baseURL: base)
        #expect(invalid.mismatches.first?.summary == "the expected JSON text is not valid JSON: {not json")

        let unbuildable = EndpointContract(method: .get).check(BodyOnGet(), baseURL: base)
        #expect(unbuildable.request == nil)
        #expect(unbuildable.mismatches.map(\.aspect) == [.build])
        #expect(unbuildable.description.contains("GET requests cannot carry a body."))
    }

    @Test func theClientsConfigurationApplies() {
        let client = makeClient(StubTransport()) {
            $0.defaultHeaders = ["X-App": "demo"]
            $0.commonParameters = ["v": 3]
        }
        let contract = EndpointContract(url: "https://api.test/profiles/1?v=3", headers: ["X-App": "demo"])
        expectEndpoint(GetProfile(id: 1), matches: contract, client: client)
    }

    @Test func aRequestRecordedByTheStubTransportCanBeChecked() async throws {
        let stubs = StubTransport()
        stubs.stub(.anyRequest, with: .json(#"{"id":1,"name":"Ada"}"#))
        _ = await makeClient(stubs).send(UpdateProfile(id: 1, name: "Ada"))
        let sent = try #require(stubs.recordedRequests.first)
        let contract = EndpointContract(
            method: .put, body: .json(encoding: UpdateBody(name: "Ada", tags: ["a", "b"], age: 36)))
        expectContract(contract.check(sent.urlRequest, label: "UpdateProfile"))
    }

    @Test func aFailingContractRecordsAnIssueAndThrows() {
        withKnownIssue {
            expectEndpoint(GetProfile(id: 1), matches: EndpointContract(method: .delete), baseURL: base)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("method: expected DELETE, got GET") }
        }
        #expect(throws: ContractViolation.self) {
            try EndpointContract(method: .delete).check(GetProfile(id: 1), baseURL: base).throwIfViolated()
        }
        #expect(throws: Never.self) {
            try EndpointContract(method: .get).check(GetProfile(id: 1), baseURL: base).throwIfViolated()
        }
    }
}

/// A GET with a body, which cannot be built.
private struct BodyOnGet: APIRequest {
    typealias Response = Empty
    var path: RequestPath { "/x" }
    var parameters: RequestParameters { .json(["a": 1]) }
}

/// The body UpdateProfile sends, as a model.
private struct UpdateBody: Encodable {
    let name: String
    let tags: [String]
    let age: Int
}
