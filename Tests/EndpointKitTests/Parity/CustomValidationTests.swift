import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// Validation written by the request or the client (Alamofire's `.validate { request, response,
/// data in }`), and the request's `Accept` header as an opt-in content-type rule, over loopback.
final class CustomValidationTests: LoopbackTestCase {
    struct Unsigned: Error, Equatable {}

    /// A response whose `X-Signature` must be the length of its body.
    struct Signed: APIRequest {
        typealias Response = JSONValue
        var path: RequestPath = "/signed"
        var parameters: RequestParameters = .none
        func validate(_ response: ResponseMetadata) throws {
            guard response.request.url?.path == "/signed" else { throw BusinessFailure(code: 1, message: "elsewhere") }
            guard response.header("X-Signature") == String(response.data.count) else { throw Unsigned() }
        }
    }

    /// Answers `{"ok":true}` with a signature that is right unless `?bad` is sent.
    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/signed") { request in
            let body = Data(#"{"ok":true}"#.utf8)
            let signature = request.target.contains("bad") ? "0" : String(body.count)
            return .response(
                status: 200, headers: [("Content-Type", "application/json"), ("X-Signature", signature)], body: body)
        }
        server.route("/refused") { _ in .json(["status": "closed"]) }
    }

    func testThatTheRequestsOwnValidationAcceptsOrAnswersAFailure() async {
        let good = await client.send(Signed())
        XCTAssertEqual(good.value, ["ok": true])

        let forged = await client.send(Signed(parameters: .query(["bad": "1"])))
        let error = forged.failure?.transportError
        XCTAssertEqual(error?.reason, .badResponse)
        XCTAssertEqual(error?.underlyingError as? Unsigned, Unsigned(), "the validator's own error is kept")
    }

    func testThatABusinessFailureFromValidationIsAServerFailure() async {
        let result = await client.send(Signed(path: "/refused"))
        let failure = result.failure?.serverFailure
        XCTAssertEqual(failure?.kind, .businessStatus)
        XCTAssertEqual(failure?.code, 1)
        XCTAssertEqual(failure?.message, "elsewhere")
        XCTAssertEqual(failure?.statusCode, 200)
    }

    func testThatTheClientsValidatorRunsFirstAndSeesEveryResponse() async {
        let seen = Locked<[String]>([])
        let strict = makeClient {
            $0.validator = { response in
                seen.withLock { $0.append(response.request.url?.path ?? "-") }
                if response.header("Content-Type")?.hasPrefix("application/json") != true { throw Unsigned() }
            }
        }
        server.route("/page") { _ in
            .response(status: 200, headers: [("Content-Type", "text/html")], body: Data("<p>".utf8))
        }
        let page = await strict.send(Endpoint<String>(path: "/page"))
        let signed = await strict.send(Signed())
        XCTAssertEqual(page.failure?.transportError?.reason, .badResponse)
        XCTAssertEqual(signed.value, ["ok": true])
        XCTAssertEqual(seen.value, ["/page", "/signed"])

        // the status rule comes first: a 404 is a server failure the validator never sees
        server.route("/missing") { _ in .status(404) }
        let missing = await strict.send(Endpoint<Empty>(path: "/missing"))
        XCTAssertEqual(missing.failure?.serverFailure?.kind, .httpStatus)
        XCTAssertEqual(seen.value.count, 2)
    }

    func testThatASubclassValidatesByOverriding() async {
        final class Guarded: BaseRequest<JSONValue> {
            override var path: RequestPath { "/signed" }
            override func validate(_ response: ResponseMetadata) throws {
                throw BusinessFailure(code: "E_SIG", message: "bad signature")
            }
        }
        let result = await client.send(Guarded())
        XCTAssertEqual(result.failure?.serverFailure?.message, "bad signature")
    }

    func testThatTheAcceptHeaderIsAContentTypeRuleWhenAskedFor() async {
        server.route("/html") { _ in
            .response(status: 200, headers: [("Content-Type", "text/html")], body: Data("<p>".utf8))
        }
        server.route("/json") { _ in .json(["a": 1]) }
        server.route("/nothing") { _ in .response(status: 200, headers: [("Content-Type", "text/html")], body: Data()) }
        var rule = ResponseValidation()
        rule.matchesAcceptHeader = true
        let strict = makeClient { $0.validation = rule }
        func send(_ path: RequestPath, accept: String?) async -> APIResult<Data> {
            var headers: HTTPHeaders = [:]
            headers["Accept"] = accept
            return await strict.send(Endpoint<Data>(path: path, headers: headers))
        }

        let html = await send("/html", accept: "application/json")
        XCTAssertEqual(html.failure?.transportError?.reason, .unacceptableContentType("text/html"))
        let json = await send("/json", accept: "application/json")
        let wildcard = await send("/html", accept: "*/*")
        let textFamily = await send("/html", accept: "application/json;q=0, text/*")
        let excluded = await send("/json", accept: "application/json;q=0, text/*")
        let empty = await send("/nothing", accept: "application/json")
        XCTAssertNotNil(json.value)
        XCTAssertNotNil(wildcard.value)
        XCTAssertNotNil(textFamily.value)
        XCTAssertEqual(excluded.failure?.transportError?.reason, .unacceptableContentType("application/json"))
        XCTAssertNotNil(empty.value, "an empty body is never refused for its type")

        // without the rule, the same Accept refuses nothing
        let lenient = await client.send(Endpoint<Data>(path: "/html", headers: ["Accept": "application/json"]))
        XCTAssertNotNil(lenient.value)
    }
}
