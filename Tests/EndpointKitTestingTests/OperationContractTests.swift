import EndpointKit
import EndpointKitTesting
import XCTest

/// A hand-written endpoint checked against what an API description says of its operation.
final class OperationContractTests: XCTestCase {
    private let base = URL(string: "https://api.test/v2")!

    private let schemas: [String: JSONSchema] = [
        "Pet": .object(
            [
                "name": .string(), "kind": .string(values: ["cat", "dog"]), "age": .integer,
                "parent": .reference("Pet"),
            ],
            required: ["name", "kind"], additionalProperties: nil)
    ]

    private var createPet: OperationContract {
        OperationContract(
            method: .post, path: "/owners/{ownerId}/pets",
            query: [.init("dryRun", schema: .boolean), .init("tags", schema: .array(.string()))],
            headers: [.init("X-Request-ID", required: true)],
            body: .init(contentType: "application/json", schema: .reference("Pet")), schemas: schemas)
    }

    /// What a hand-written endpoint sends, varied by each test.
    private struct CreatePet {
        var owner = "o 1"
        var method: HTTPMethod = .post
        var path = "/owners/{owner}/pets"
        var body: JSONValue = ["name": "Rex", "kind": "dog", "parent": ["name": "Old", "kind": "cat"]]
        var query: QueryItems = ["dryRun": true, "tags": .list(["a", "b"])]
        var headers: HTTPHeaders = ["X-Request-ID": "1"]

        var endpoint: Endpoint<Empty> {
            let path = RequestPath(stringLiteral: path.replacingOccurrences(of: "{owner}", with: owner))
            return Endpoint(method: method, path: path, parameters: .json(body).appendingQuery(query), headers: headers)
        }
    }

    func testAMatchingEndpointSatisfiesTheContract() {
        let report = createPet.check(CreatePet().endpoint, baseURL: base)
        XCTAssertTrue(report.isSatisfied, report.description)
    }

    func testEachDifferenceIsReportedWithWhereItIs() {
        var endpoint = CreatePet()
        endpoint.method = .put
        endpoint.path = "/owner/{owner}/pets"
        endpoint.query = ["dryRun": "maybe", "verbose": true]
        endpoint.headers = .empty
        endpoint.body = ["name": "Rex", "kind": "bird", "age": 1.5, "parent": ["kind": "cat"], "color": "red"]
        let report = createPet.check(endpoint.endpoint, baseURL: base)
        let text = report.description
        XCTAssertEqual(report.mismatches.map(\.aspect), [.method, .url, .query, .header("X-Request-ID"), .body], text)
        for expected in [
            "+ dryRun=maybe (not true or false)", "+ verbose=true (not in the description)",
            "/kind: \"bird\" is not one of \"cat\", \"dog\"", "/age: expected an integer, got 1.5",
            "/parent: the required member \"name\" is missing",
            "/color: the member \"color\" is not in the description",
        ] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in\n\(text)")
        }
    }

    func testAFormBodyIsCheckedByItsFieldNamesAndAMissingBodyByRequired() {
        let contract = OperationContract(
            method: .post, path: "/login",
            body: .init(
                contentType: "application/x-www-form-urlencoded",
                schema: .object(["user": .string(), "password": .string()], required: ["user", "password"])))
        let sent = Endpoint<Empty>(method: .post, path: "/login", parameters: .form(["user": "ada"]))
        XCTAssertTrue(
            contract.check(sent, baseURL: base).description.contains("the required field \"password\" is missing"))
        let json = Endpoint<Empty>(method: .post, path: "/login", parameters: .json(["user": "ada"]))
        XCTAssertEqual(contract.check(json, baseURL: base).mismatches.map(\.aspect), [.header("Content-Type")])
        let none = Endpoint<Empty>(method: .post, path: "/login")
        XCTAssertEqual(
            contract.check(none, baseURL: base).mismatches.map(\.summary),
            [
                "missing (the operation requires a application/x-www-form-urlencoded body)"
            ])
    }

    func testPathTemplatesMatchWholeAndPartialSegments() {
        let contract = OperationContract(method: .get, path: "/files/{name}.json")
        XCTAssertTrue(contract.check(Endpoint<Empty>(path: "/files/report.json"), baseURL: base).isSatisfied)
        XCTAssertFalse(contract.check(Endpoint<Empty>(path: "/files/.json"), baseURL: base).isSatisfied)
        XCTAssertFalse(contract.check(Endpoint<Empty>(path: "/files/a/b.json"), baseURL: base).isSatisfied)
        XCTAssertFalse(contract.check(Endpoint<Empty>(path: "/files/report.xml"), baseURL: base).isSatisfied)
    }

    func testARecursiveSchemaIsCheckedToItsDepth() {
        var value: JSONValue = ["name": "leaf", "kind": "cat"]
        for _ in 0..<20 { value = ["name": "n", "kind": "dog", "parent": value] }
        let contract = OperationContract(
            method: .post, path: "/pets", body: .init(contentType: "application/json", schema: .reference("Pet")),
            schemas: schemas)
        let sent = Endpoint<Empty>(method: .post, path: "/pets", parameters: .json(value))
        XCTAssertTrue(contract.check(sent, baseURL: base).isSatisfied)
    }
}
