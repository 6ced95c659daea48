import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Common parameters in the query, the body or both, sent over loopback to the echo route: what
/// the server receives is what is checked.
final class CommonParameterPlacementTests: LoopbackTestCase {
    private struct Profile: Encodable, Sendable {
        let name: String
        let app: String?
    }

    private func echo(
        _ parameters: RequestParameters, method: HTTPMethod = .post, placement: CommonParameterPlacement = .body,
        common: QueryItems = ["app": "ios", "v": "3.2"]
    ) throws -> Echo {
        let client = makeClient {
            $0.commonParameters = common
            $0.commonParameterPlacement = placement
        }
        let result = try XCTUnwrap(sendAndWait(EchoRequest(method: method, parameters: parameters), client: client))
        return try result.get()
    }

    private func queryNames(_ echo: Echo) -> [String] { echo.query.compactMap(\.first) }

    func testThatCommonParametersJoinAJSONObjectAndTheRequestWinsAClash() throws {
        let echo = try echo(.json(Profile(name: "Ada", app: "web")))
        XCTAssertEqual(echo.json, ["name": "Ada", "app": "web", "v": "3.2"])
        XCTAssertEqual(queryNames(echo), [])
        // The request's own bytes are kept: only members are added in front. (Raw bytes here:
        // JSONEncoder's key order is not stable across runs on Linux.)
        let raw = try self.echo(
            .data(Data(#"{"name":"Ada", "app":"web","n":1.50}"#.utf8), contentType: "application/json"))
        XCTAssertEqual(raw.body, #"{"v":"3.2","name":"Ada", "app":"web","n":1.50}"#)
    }

    func testThatEveryKindOfJSONObjectBodyTakesThem() throws {
        XCTAssertEqual(try echo(.json(["n": 1])).json, ["n": 1, "app": "ios", "v": "3.2"])
        XCTAssertEqual(try echo(.json(JSONValue(jsonObject: ["n": true]))).json, ["n": true, "app": "ios", "v": "3.2"])
        let empty = try echo(.json([:] as JSONValue))
        XCTAssertEqual(empty.body, #"{"app":"ios","v":"3.2"}"#)
        let raw = try echo(.data(Data(#"  { "k" : null }"#.utf8), contentType: "application/vnd.api+json"))
        XCTAssertEqual(raw.json, ["k": nil, "app": "ios", "v": "3.2"])
    }

    func testThatListsAndRepeatedNamesBecomeJSONArraysOfStrings() throws {
        let echo = try echo(.json(["n": 1]), common: ["tags": ["a", "b"], "id": "1", "skip": nil, "z": 7])
        XCTAssertEqual(echo.json, ["n": 1, "tags": ["a", "b"], "id": "1", "z": "7"])
        var repeated = QueryItems()
        repeated.append("id", "1")
        repeated.append("id", "2")
        XCTAssertEqual(try self.echo(.json([:] as JSONValue), common: repeated).json, ["id": ["1", "2"]])
    }

    func testThatAJSONArrayIsLeftAloneAndTheParametersGoInTheQuery() throws {
        let echo = try echo(.json([1, 2] as JSONValue))
        XCTAssertEqual(echo.json, [1, 2])
        XCTAssertEqual(echo.query, [["app", "ios"], ["v", "3.2"]])
    }

    func testThatFormBodiesTakeThemAsFieldsAndTheRequestWinsAClash() throws {
        let literal = try echo(["user": "ada", "v": "9"])  // a dictionary literal is a form body for POST
        XCTAssertEqual(literal.form, ["user": "ada", "v": "9", "app": "ios"])
        XCTAssertEqual(literal.body, "user=ada&v=9&app=ios")
        XCTAssertEqual(queryNames(literal), [])
        let explicit = try echo(.form(["a": "1"]), method: .put)
        XCTAssertEqual(explicit.body, "a=1&app=ios&v=3.2")
    }

    func testThatMultipartBodiesTakeThemAsTextFields() throws {
        var form = MultipartFormData()
        form.append("Ada", name: "owner")
        form.append("web", name: "app")
        form.append(Data([0, 1, 2]), name: "blob", fileName: "b.bin")
        let echo = try echo(.multipart(form), common: ["app": "ios", "tags": ["x", "y"]])
        let body = try XCTUnwrap(echo.body)
        XCTAssertEqual(body.components(separatedBy: #"name="app""#).count - 1, 1, "the request's field wins")
        XCTAssertTrue(body.contains("name=\"app\"\r\n\r\nweb\r\n"))
        XCTAssertEqual(body.components(separatedBy: #"name="tags""#).count - 1, 2, "one field per value")
        XCTAssertTrue(body.contains("name=\"tags\"\r\n\r\nx\r\n"))
        XCTAssertTrue(body.contains("name=\"tags\"\r\n\r\ny\r\n"))
        XCTAssertEqual(queryNames(echo), [])
    }

    func testThatRequestsWithoutABodyOrWithRawBytesKeepThemInTheQuery() throws {
        let get = try echo(["q": "swift"], method: .get)
        XCTAssertEqual(get.query, [["app", "ios"], ["v", "3.2"], ["q", "swift"]])
        XCTAssertNil(get.body.flatMap { $0.isEmpty ? nil : $0 })
        let text = try echo(.text("hello"))
        XCTAssertEqual(text.body, "hello")
        XCTAssertEqual(queryNames(text), ["app", "v"])
    }

    func testThatQueryAndBodyPutsThemInBoth() throws {
        let echo = try echo(.json(["n": 1]), placement: .queryAndBody)
        XCTAssertEqual(echo.json, ["n": 1, "app": "ios", "v": "3.2"])
        XCTAssertEqual(queryNames(echo), ["app", "v"])
    }

    func testThatTheDefaultPlacementLeavesTheBodyAlone() throws {
        let echo = try echo(.json(["n": 1]), placement: .query)
        XCTAssertEqual(echo.body, #"{"n":1}"#)
        XCTAssertEqual(queryNames(echo), ["app", "v"])
        let form = try self.echo(["user": "ada"], placement: .query)
        XCTAssertEqual(form.body, "user=ada")
    }
}
