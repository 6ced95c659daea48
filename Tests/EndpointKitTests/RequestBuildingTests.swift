import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request building with no network at all: URL, query, headers, body. What a request sends is
/// checked with EndpointKitTesting's contracts; exact bytes where the encoding itself is the point.
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
        var headers: HTTPHeaders = HTTPHeaders.empty
        var baseURL: URL?
    }

    func testThatPathIsAppendedToBaseURLPath() {
        let contract = EndpointContract(method: .get, url: "https://api.example.com/v1/things", body: .empty)
        assertEndpoint(Endpoint(), matches: contract, client: makeClient())
    }

    func testThatAQueryInTheBaseURLIsKeptBeforeEveryOtherParameter() throws {
        let client = makeClient {
            $0.baseURL = URL(string: "https://api.test/v1?key=1&v=a%20b#top")
            $0.commonParameters = ["app": "ios"]
        }
        let url = try client.urlRequest(for: Endpoint(parameters: .query(["q": "x"]))).url
        XCTAssertEqual(url?.absoluteString, "https://api.test/v1/things?key=1&v=a%20b&app=ios&q=x")
        let alone = makeClient { $0.baseURL = URL(string: "https://api.test/v1/?key=1") }
        XCTAssertEqual(try alone.urlRequest(for: Endpoint()).url?.absoluteString, "https://api.test/v1/things?key=1")
        let perRequest = try makeClient().urlRequest(for: Endpoint(baseURL: URL(string: "https://other.test?token=t")))
        XCTAssertEqual(perRequest.url?.absoluteString, "https://other.test/things?token=t")
    }

    func testThatInterpolatedPathValuesCannotChangeThePath() throws {
        let hostile = "../admin"
        let path: RequestPath = "/users/\(hostile)/posts"
        XCTAssertEqual(path.encoded, "/users/..%2Fadmin/posts")
        let dots = ".."
        XCTAssertEqual(("/users/\(dots)" as RequestPath).encoded, "/users/%2E%2E")
        let query = "a?b#c d%"
        XCTAssertEqual(("/q/\(query)" as RequestPath).encoded, "/q/a%3Fb%23c%20d%25")
        assertEndpoint(
            Endpoint(path: "/users/\(hostile)"),
            matches: EndpointContract(url: "https://api.example.com/v1/users/..%2Fadmin"),
            client: makeClient())
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

    func testThatCommonParametersComeFirstInEveryRequest() {
        let client = makeClient { $0.commonParameters = ["app": "demo", "v": 3] }
        let contract = EndpointContract(query: ["app": "demo", "v": 3, "page": 2], queryOrder: .exact)
        assertEndpoint(Endpoint(parameters: .query(["page": 2])), matches: contract, client: client)
    }

    func testThatMethodDependentParametersGoToQueryForGETAndFormBodyForPOST() {
        let get = EndpointContract(
            method: .get, query: ["a": 1, "b": "two words"], queryOrder: .exact, body: .empty)
        assertEndpoint(
            Endpoint(method: .get, parameters: ["a": 1, "b": "two words"]), matches: get, client: makeClient())

        let post = EndpointContract(
            method: .post, url: "https://api.example.com/v1/things",
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: .form(["a": 1, "b": "two words"], order: .exact))
        assertEndpoint(
            Endpoint(method: .post, parameters: ["a": 1, "b": "two words"]), matches: post, client: makeClient())
    }

    func testThatEncodableBodyIsJSON() {
        let contract = EndpointContract(
            headers: ["Content-Type": "application/json"], body: .json(#"{"id":1,"name":"a"}"#))
        assertEndpoint(
            Endpoint(method: .post, parameters: .json(Item(id: 1, name: "a"))), matches: contract, client: makeClient())
    }

    func testThatTheClientsEncoderEncodesBodies() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let client = makeClient { $0.encoder = encoder }
        let contract = EndpointContract(body: .json(["item_id": 1]))
        assertEndpoint(
            Endpoint(method: .post, parameters: .json(CamelCased(itemId: 1))), matches: contract,
            client: client)
    }

    func testThatDictionaryBodiesAreJSON() throws {
        let literal = try makeClient().urlRequest(
            for: Endpoint(method: .put, parameters: .json(["b": [1, 2], "a": nil, "c": ["d": true]])))
        XCTAssertEqual(
            literal.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"a":null,"b":[1,2],"c":{"d":true}}"#)

        let foundation = try makeClient().urlRequest(
            for: Endpoint(
                method: .patch, parameters: .json(try JSONValue(jsonObject: ["k": "v", "n": 1] as [String: Any]))))
        XCTAssertEqual(foundation.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"k":"v","n":1}"#)
    }

    func testThatAnObjectJSONCannotHoldIsRefusedBeforeItBecomesABody() {
        XCTAssertThrowsError(try JSONValue(jsonObject: Date())) {
            XCTAssertNotNil($0 as? JSONConversionError, "\($0)")
        }
    }

    func testThatRawDataKeepsItsContentTypeAndQueryIsCombined() {
        let parameters = RequestParameters.data(Data([1, 2, 3]), contentType: "application/octet-stream")
            .appendingQuery(["v": 2])
        let contract = EndpointContract(
            query: ["v": 2], headers: ["Content-Type": "application/octet-stream"], body: .data(Data([1, 2, 3])))
        assertEndpoint(Endpoint(method: .post, parameters: parameters), matches: contract, client: makeClient())
    }

    func testThatRequestHeadersOverrideDefaultsCaseInsensitively() {
        let client = makeClient { $0.defaultHeaders = ["Accept": "application/json", "X-App": "demo"] }
        let endpoint = Endpoint(
            method: .post, parameters: .json(["a": 1]),
            headers: ["accept": "text/plain", "Content-Type": "application/vnd+json"])
        let contract = EndpointContract(
            headers: ["Accept": "text/plain", "X-App": "demo", "Content-Type": "application/vnd+json"],
            body: .json(["a": 1]))
        assertEndpoint(endpoint, matches: contract, client: client)
    }

    func testThatHeaderInjectionIsRejected() {
        for headers: HTTPHeaders in [["X-A": "v\r\nInjected: 1"], ["X-A": "v\nx"], ["X-A": "a\u{0}b"]] {
            XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(headers: headers))) {
                XCTAssertEqual($0 as? RequestBuildError, .controlCharacter(component: "header X-A"))
            }
        }
        for headers: HTTPHeaders in [["Bad Name": "v"], ["": "v"]] {
            XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(headers: headers))) {
                guard case .invalidHeader = $0 as? RequestBuildError else { return XCTFail("\($0)") }
            }
        }
    }

    func testThatControlCharactersInPathOrQueryValuesAreRejected() {
        for value in ["a\r\nHost: evil", "a\nb", "a\u{0}b", "a\rb"] {
            XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(path: "/users/\(value)")), value) {
                XCTAssertEqual($0 as? RequestBuildError, .controlCharacter(component: "path"))
            }
            XCTAssertThrowsError(
                try makeClient().urlRequest(for: Endpoint(parameters: .query([.init("q", .string(value))]))), value
            ) {
                XCTAssertEqual($0 as? RequestBuildError, .controlCharacter(component: "query"))
            }
            XCTAssertThrowsError(
                try makeClient().urlRequest(for: Endpoint(parameters: .query([.init(value, "v")]))), value
            ) {
                XCTAssertEqual($0 as? RequestBuildError, .controlCharacter(component: "query"))
            }
        }
        // Already-encoded text is checked too: `%0D`, `%0a`, `%00` in a trusted path.
        let encoded = "x%0ay"
        let encodedPaths: [RequestPath] = [
            RequestPath(percentEncoded: "/a%0Db"), "/files/\(raw: encoded)", "/b%00",
            RequestPath(percentEncoded: "/a%%0Ab"), RequestPath(percentEncoded: "/a%0%0d"),
        ]
        for path in encodedPaths {
            XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(path: path)), path.encoded) {
                XCTAssertEqual($0 as? RequestBuildError, .controlCharacter(component: "path"))
            }
        }
        for encoded in ["/a%20Dc", "/a%0Bc", "/a%0", "/a%", "/%30A"] {
            XCTAssertNoThrow(
                try makeClient().urlRequest(for: Endpoint(path: RequestPath(percentEncoded: encoded))), encoded)
        }
        // Look-alikes stay allowed: "%0D" typed as text (sent as %250D), other escapes, tabs.
        for value in ["%0D%0A", "%0B", "100%", "a\tb"] {
            XCTAssertNoThrow(try makeClient().urlRequest(for: Endpoint(path: "/v/\(value)")), value)
            XCTAssertNoThrow(
                try makeClient().urlRequest(for: Endpoint(parameters: .query([.init("q", .string(value))]))), value)
        }
    }

    func testThatGETWithBodyAndMissingBaseURLFailToBuild() {
        XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(method: .get, parameters: .json(["a": 1])))) {
            XCTAssertEqual($0 as? RequestBuildError, .bodyNotAllowed(.get))
        }
        // (A StubTransport stands in a base URL of its own: see SampleResponseTests.)
        let client = APIClient(configuration: .init(baseURL: nil, transport: URLSessionTransport()))
        XCTAssertThrowsError(try client.urlRequest(for: Endpoint())) {
            XCTAssertEqual($0 as? RequestBuildError, .missingBaseURL)
        }
        XCTAssertThrowsError(try makeClient().urlRequest(for: Endpoint(method: "BAD METHOD"))) {
            guard case .definitionFailed = $0 as? RequestBuildError else { return XCTFail("\($0)") }
        }
    }

    func testThatRequestBaseURLOverridesClient() {
        assertEndpoint(
            Endpoint(baseURL: URL(string: "http://other.test:8080/api?x=1")),
            matches: EndpointContract(url: "http://other.test:8080/api/things?x=1"), client: makeClient())
    }

    func testThatSubclassRequestsBuildLikeStructs() {
        assertEndpoint(
            ItemRequest(itemID: 5), matches: EndpointContract(method: .get, url: "https://api.example.com/v1/items/5"),
            client: makeClient())
    }

    func testThatTimeoutsComeFromRequestThenClient() throws {
        struct Timed: APIRequest {
            typealias Response = Empty
            var path: RequestPath { "/t" }
            var connectTimeout: TimeInterval?
            var idleTimeout: TimeInterval?
            var totalTimeout: TimeInterval?
        }
        let client = Timeouts(connect: 5, idle: 12, total: 100)
        XCTAssertEqual(Timed().timeouts(overriding: client), client)
        XCTAssertEqual(
            Timed(connectTimeout: 1, idleTimeout: 2, totalTimeout: 3).timeouts(overriding: client),
            Timeouts(connect: 1, idle: 2, total: 3))
        XCTAssertNil(Timed(totalTimeout: 0).timeouts(overriding: client).total, "0 or less: no total deadline")
        XCTAssertEqual(Timed(idleTimeout: 7).timeouts(overriding: client), Timeouts(connect: 5, idle: 7, total: 100))
        XCTAssertEqual(Timeouts(), Timeouts(connect: 30, idle: 60, total: nil), "the documented defaults")
        // URLRequest.timeoutInterval is URLSession's idle timeout: the idle limit goes there.
        XCTAssertEqual(try makeClient { $0.timeouts.idle = 12 }.urlRequest(for: Endpoint()).timeoutInterval, 12)
        XCTAssertEqual(try makeClient().urlRequest(for: Timed(idleTimeout: 3)).timeoutInterval, 3)
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

/// A body whose key the client's encoder renames.
private struct CamelCased: Encodable, Sendable {
    let itemId: Int
}
