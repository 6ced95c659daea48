import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Nested parameters (`filter[status]=open`) over loopback: what the echo route receives in the
/// query, in a form body, and from common parameters in JSON and multipart bodies.
final class NestedParametersTests: LoopbackTestCase {
    /// The parts of the echo this test reads: the raw target, the decoded query and the body.
    private struct Received: Decodable, Sendable {
        let target: String
        let query: [[String]]
        let body: String?
        let json: JSONValue?
    }

    private struct Send: APIRequest {
        typealias Response = Received
        var method: HTTPMethod = .get
        var parameters: RequestParameters
        var path: RequestPath { "/echo" }
    }

    private func send(_ request: Send, client: APIClient? = nil) throws -> Received {
        try XCTUnwrap(sendAndWait(request, client: client)).get()
    }

    private static let nested: QueryItems = [
        "a": .dictionary([.init("b", "1"), .init("b", ["c": "2"])]), "filter": ["status": "open"], "page": 2,
    ]

    func testThatAQueryCarriesBracketedNames() throws {
        let received = try send(Send(parameters: .query(Self.nested)))
        XCTAssertEqual(
            received.query, [["a[b]", "1"], ["a[b][c]", "2"], ["filter[status]", "open"], ["page", "2"]])
        XCTAssertEqual(received.target, "/echo?a%5Bb%5D=1&a%5Bb%5D%5Bc%5D=2&filter%5Bstatus%5D=open&page=2")
    }

    func testThatAFormBodyCarriesBracketedNames() throws {
        let received = try send(Send(method: .post, parameters: .methodDependent(Self.nested)))
        XCTAssertEqual(received.body, "a%5Bb%5D=1&a%5Bb%5D%5Bc%5D=2&filter%5Bstatus%5D=open&page=2")
        XCTAssertEqual(received.query, [])
    }

    func testThatListsInsideFollowTheClientsArrayEncoding() throws {
        let items: QueryItems = ["user": ["tags": ["x", "y"], "name": "ada"]]
        let brackets = makeClient { $0.arrayEncoding = .brackets }
        let query = try send(Send(parameters: .query(items)), client: brackets)
        XCTAssertEqual(query.query, [["user[tags][]", "x"], ["user[tags][]", "y"], ["user[name]", "ada"]])
        let form = try send(Send(method: .post, parameters: .form(items)), client: brackets)
        XCTAssertEqual(form.body, "user%5Btags%5D%5B%5D=x&user%5Btags%5D%5B%5D=y&user%5Bname%5D=ada")
        let repeated = try send(Send(parameters: .query(items)))
        XCTAssertEqual(repeated.query, [["user[tags]", "x"], ["user[tags]", "y"], ["user[name]", "ada"]])
    }

    func testThatCommonParametersNestInJSONAndMultipartBodies() throws {
        let client = makeClient {
            $0.commonParameters = ["device": ["os": "ios", "build": 7], "v": "3"]
            $0.commonParameterPlacement = .body
        }
        let json = try send(Send(method: .post, parameters: .json(["n": 1])), client: client)
        XCTAssertEqual(json.json, ["n": 1, "device": ["os": "ios", "build": "7"], "v": "3"])

        var form = MultipartFormData()
        form.append("Ada", name: "owner")
        let multipart = try send(Send(method: .post, parameters: .multipart(form)), client: client)
        let body = try XCTUnwrap(multipart.body)
        XCTAssertTrue(body.contains("name=\"device[os]\"\r\n\r\nios\r\n"), body)
        XCTAssertTrue(body.contains("name=\"device[build]\"\r\n\r\n7\r\n"), body)

        let query = try send(Send(parameters: .query(["q": "x"])), client: client)
        XCTAssertEqual(query.query, [["device[os]", "ios"], ["device[build]", "7"], ["v", "3"], ["q", "x"]])
    }

    func testThatNestedCommonParametersGivenTwiceMergeInAJSONBody() throws {
        var common: QueryItems = ["device": ["os": "ios"]]
        common.append("device", ["build": 7])
        common.append("app", "demo")
        common.append("app", ["name": "ignored"])
        let client = makeClient {
            $0.commonParameters = common
            $0.commonParameterPlacement = .body
        }
        let json = try send(Send(method: .post, parameters: .json([:] as JSONValue)), client: client)
        XCTAssertEqual(json.json, ["device": ["os": "ios", "build": "7"], "app": "demo"])
    }
}
