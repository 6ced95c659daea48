import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request building with no network at all: URL, query, headers, body.
final class RequestBuildingTests: XCTestCase {
    private func makeClient(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        var configuration = APIClient.Configuration(
            baseURL: URL(string: "https://api.example.com/v1/"), transport: StubTransport())
        configure(&configuration)
        return APIClient(configuration: configuration)
    }

    private struct Endpoint: APIRequest {
        typealias Response = Empty
        var path: RequestPath = "/things"
        var method: HTTPMethod = .get
        var parameters: RequestParameters = .none
        var headers: HTTPHeaders = HTTPHeaders()
        var baseURL: URL?
    }

    func testThatPathIsAppendedToBaseURLPath() throws {
        let request = try makeClient().urlRequest(for: Endpoint())
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/things")
        XCTAssertEqual(request.httpMethod, "GET")
    }

    func testThatInterpolatedPathValuesCannotChangeThePath() throws {
        let hostile = "../admin"
        let path: RequestPath = "/users/\(hostile)/posts"
        XCTAssertEqual(path.encoded, "/users/..%2Fadmin/posts")
        let dots = ".."
        XCTAssertEqual(("/users/\(dots)" as RequestPath).encoded, "/users/%2E%2E")
        let query = "a?b#c d%"
        XCTAssertEqual(("/q/\(query)" as RequestPath).encoded, "/q/a%3Fb%23c%20d%25")
        let request = try makeClient().urlRequest(for: Endpoint(path: "/users/\(hostile)"))
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/users/..%2Fadmin")
        XCTAssertEqual(RequestPath(segments: ["a/b", "c"]).encoded, "/a%2Fb/c")
        let trusted = "x/y"
        XCTAssertEqual(("/files/\(raw: trusted)" as RequestPath).encoded, "/files/x/y")
    }

    func testThatQueryKeepsOrderArraysAndRepeatedKeys() throws {
        let parameters = RequestParameters.query(
            [.init("b", "2"), .init("a", "1"), .init("a", "x y+z&="), .init("tags", ["p", "q"]), .init("skip", nil)])
        let request = try makeClient().urlRequest(for: Endpoint(parameters: parameters))
        XCTAssertEqual(request.url?.query, "b=2&a=1&a=x%20y%2Bz%26%3D&tags=p&tags=q")

        let brackets = try makeClient { $0.arrayEncoding = .brackets }.urlRequest(
            for: Endpoint(parameters: .query(["tags": ["p", "q"]])))
        XCTAssertEqual(brackets.url?.query, "tags%5B%5D=p&tags%5B%5D=q")
        let comma = try makeClient { $0.arrayEncoding = .commaSeparated }.urlRequest(
            for: Endpoint(parameters: .query(["tags": ["p", "q"]])))
        XCTAssertEqual(comma.url?.query, "tags=p%2Cq")
    }

    func testThatLiteralValuesOfEveryTypeAreWritten() throws {
        let request = try makeClient().urlRequest(
            for: Endpoint(
                parameters: .query(["i": 3, "d": 1.5, "t": true, "f": false, "s": "x", "v": QueryValue(42 as Int64)])))
        XCTAssertEqual(request.url?.query, "i=3&d=1.5&t=true&f=false&s=x&v=42")
    }

    func testThatCommonParametersComeFirstInEveryRequest() throws {
        let client = makeClient { $0.commonParameters = ["app": "demo", "v": 3] }
        let request = try client.urlRequest(for: Endpoint(parameters: .query(["page": 2])))
        XCTAssertEqual(request.url?.query, "app=demo&v=3&page=2")
    }

    func testThatMethodDependentParametersGoToQueryForGETAndFormBodyForPOST() throws {
        let get = try makeClient().urlRequest(for: Endpoint(method: .get, parameters: ["a": 1, "b": "two words"]))
        XCTAssertEqual(get.url?.query, "a=1&b=two%20words")
        XCTAssertNil(get.httpBody)

        let post = try makeClient().urlRequest(for: Endpoint(method: .post, parameters: ["a": 1, "b": "two words"]))
        XCTAssertNil(post.url?.query)
        XCTAssertEqual(post.httpBody.map { String(decoding: $0, as: UTF8.self) }, "a=1&b=two%20words")
        XCTAssertEqual(
            post.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testThatEncodableBodyIsJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let client = makeClient { $0.encoder = encoder }
        let request = try client.urlRequest(for: Endpoint(method: .post, parameters: .json(Item(id: 1, name: "a"))))
        XCTAssertEqual(request.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"id":1,"name":"a"}"#)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func testThatDictionaryBodiesAreJSON() throws {
        let literal = try makeClient().urlRequest(
            for: Endpoint(method: .put, parameters: .json(["b": [1, 2], "a": nil, "c": ["d": true]])))
        XCTAssertEqual(
            literal.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"a":null,"b":[1,2],"c":{"d":true}}"#)

        let foundation = try makeClient().urlRequest(
            for: Endpoint(method: .patch, parameters: .jsonObject(["k": "v", "n": 1] as [String: Any])))
        XCTAssertEqual(foundation.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"k":"v","n":1}"#)
    }

    func testThatInvalidJSONObjectFailsToBuild() {
        XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(method: .post, parameters: .jsonObject(Date()))))
        {
            guard case .bodyEncodingFailed = $0 as? RequestBuildError else { return XCTFail("\($0)") }
        }
    }

    func testThatRawDataKeepsItsContentTypeAndQueryIsCombined() throws {
        let parameters = RequestParameters.data(Data([1, 2, 3]), contentType: "application/octet-stream")
            .appendingQuery(["v": 2])
        let request = try makeClient().urlRequest(for: Endpoint(method: .post, parameters: parameters))
        XCTAssertEqual(request.httpBody, Data([1, 2, 3]))
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/octet-stream")
        XCTAssertEqual(request.url?.query, "v=2")
    }

    func testThatRequestHeadersOverrideDefaultsCaseInsensitively() throws {
        let client = makeClient { $0.defaultHeaders = ["Accept": "application/json", "X-App": "demo"] }
        let request = try client.urlRequest(
            for: Endpoint(
                method: .post, parameters: .json(["a": 1]),
                headers: ["accept": "text/plain", "Content-Type": "application/vnd+json"]))
        XCTAssertEqual(request.value(forHTTPHeaderField: "Accept"), "text/plain")
        XCTAssertEqual(request.value(forHTTPHeaderField: "X-App"), "demo")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/vnd+json")
    }

    func testThatHeaderInjectionIsRejected() {
        for headers: HTTPHeaders in [
            ["X-A": "v\r\nInjected: 1"], ["X-A": "v\nx"], ["X-A": "a\u{0}b"], ["Bad Name": "v"], ["": "v"],
        ] {
            XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(headers: headers))) {
                guard case .invalidHeader = $0 as? RequestBuildError else { return XCTFail("\($0)") }
            }
        }
    }

    func testThatGETWithBodyAndMissingBaseURLFailToBuild() {
        XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(method: .get, parameters: .json(["a": 1])))) {
            XCTAssertEqual($0 as? RequestBuildError, .bodyNotAllowed(.get))
        }
        let client = APIClient(configuration: .init(baseURL: nil, transport: StubTransport()))
        XCTAssertThrowsError(try client.urlRequest(for: Endpoint())) {
            XCTAssertEqual($0 as? RequestBuildError, .missingBaseURL)
        }
        XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(method: "BAD METHOD"))) {
            guard case .definitionFailed = $0 as? RequestBuildError else { return XCTFail("\($0)") }
        }
    }

    func testThatRequestBaseURLOverridesClient() throws {
        let request = try makeClient().urlRequest(for: Endpoint(baseURL: URL(string: "http://other.test:8080/api?x=1")))
        XCTAssertEqual(request.url?.absoluteString, "http://other.test:8080/api/things")
    }

    func testThatSubclassRequestsBuildLikeStructs() throws {
        let request = try makeClient().urlRequest(for: ItemRequest(itemID: 5))
        XCTAssertEqual(request.url?.absoluteString, "https://api.example.com/v1/items/5")
    }

    func testThatTimeoutComesFromRequestThenClient() throws {
        XCTAssertEqual(try makeClient { $0.timeout = 12 }.urlRequest(for: Endpoint()).timeoutInterval, 12)
        XCTAssertEqual(try makeClient().urlRequest(for: GetItem(timeout: 3)).timeoutInterval, 3)
    }

    func testThatHTTPHeadersReplaceCaseInsensitivelyKeepingPosition() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3"]
        XCTAssertEqual(headers.count, 2)
        XCTAssertEqual(headers["a"], "3")
        headers["b"] = nil
        headers["C"] = "4"
        XCTAssertEqual(headers.map(\.name), ["a", "C"])
    }
}
