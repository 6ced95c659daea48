import EndpointKit
import EndpointKitStreaming
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Conformance against a real httpbin (gunicorn). `.ci/run` starts one and exports
/// `ENDPOINTKIT_HTTPBIN_URL`; without it these tests skip. The client's default transport is used
/// unless `ENDPOINTKIT_TRANSPORTS` names one.
final class HTTPBinConformanceTests: XCTestCase {
    private var client: APIClient!

    override func setUpWithError() throws {
        guard let base = ProcessInfo.processInfo.environment["ENDPOINTKIT_HTTPBIN_URL"], let url = URL(string: base)
        else {
            throw XCTSkip(
                "ENDPOINTKIT_HTTPBIN_URL is not set: start httpbin (see .ci/run) to run the conformance suite.")
        }
        // ENDPOINTKIT_TRANSPORTS picks the transport (.ci/run runs the suite once per transport).
        let transport =
            ProcessInfo.processInfo.environment["ENDPOINTKIT_TRANSPORTS"] == nil
            ? nil : try TransportKind.selected.first?.make()
        client = APIClient(baseURL: url) {
            if let transport { $0.transport = transport }
            $0.timeouts.total = 15
        }
    }

    private struct Bin: Decodable, Sendable {
        let args: [String: JSONValue]?
        let headers: [String: String]?
        let json: JSONValue?
        let form: [String: String]?
        let url: String?
        let gzipped: Bool?
        let authenticated: Bool?
        let files: [String: String]?
    }

    private struct BinRequest: APIRequest {
        typealias Response = Bin
        var path: RequestPath
        var method: HTTPMethod = .get
        var parameters: RequestParameters = .none
        var headers: HTTPHeaders = HTTPHeaders.empty
        var totalTimeout: TimeInterval?
    }

    private struct Status: APIRequest {
        typealias Response = Empty
        let code: Int
        var path: RequestPath { "/status/\(code)" }
    }

    func testThatQueryArraysAndRepeatedKeysArrive() async throws {
        let bin = try await client.value(
            for: BinRequest(path: "/get", parameters: .query(["a": ["1", "2"], "b": "x y"])))
        XCTAssertEqual(bin.args?["a"], ["1", "2"])
        XCTAssertEqual(bin.args?["b"], "x y")
    }

    func testThatJSONAndFormBodiesArrive() async throws {
        let json = try await client.value(
            for: BinRequest(path: "/post", method: .post, parameters: .json(["k": [1, 2]])))
        XCTAssertEqual(json.json, ["k": [1, 2]])
        let form = try await client.value(for: BinRequest(path: "/put", method: .put, parameters: .form(["k": "v w"])))
        XCTAssertEqual(form.form, ["k": "v w"])
        for method: HTTPMethod in [.patch, .delete] {
            let result = await client.send(
                BinRequest(path: RequestPath(percentEncoded: "/" + method.rawValue.lowercased()), method: method))
            XCTAssertTrue(result.isSuccess, "\(method): \(result)")
        }
    }

    private struct Signup: Encodable, Sendable {
        let displayName: String
        let joinedAt: Date
        let newsletter: Bool
        let referrer: String?
        let pets: [Pet]
        let tags: [String]
    }

    private struct Pet: Encodable, Sendable {
        let name: String
        let age: Int
    }

    func testThatEncodableQueryAndFormParametersArrive() async throws {
        let signup = Signup(
            displayName: "Ada L+", joinedAt: Date(timeIntervalSince1970: 1_700_000_000), newsletter: true,
            referrer: nil, pets: [Pet(name: "Rex", age: 3), Pet(name: "Tom", age: 5)], tags: ["a", "b"])
        let encoder = FormEncoder(
            arrayEncoding: .indexInBrackets, nilEncoding: .empty, dateEncoding: .millisecondsSince1970,
            boolEncoding: .numeric, keyEncoding: .convertToSnakeCase, spaceEncoding: .plusReplaced)
        let expected = [
            "display_name": "Ada L+", "joined_at": "1700000000000", "newsletter": "1", "referrer": "",
            "pets[0][name]": "Rex", "pets[0][age]": "3", "pets[1][name]": "Tom", "pets[1][age]": "5",
            "tags[0]": "a", "tags[1]": "b",
        ]
        let query = try await client.value(
            for: BinRequest(path: "/get", parameters: .query(encoding: signup, encoder: encoder)))
        XCTAssertEqual(query.args, expected.mapValues { JSONValue.string($0) })
        let form = try await client.value(
            for: BinRequest(path: "/post", method: .post, parameters: .form(encoding: signup, encoder: encoder)))
        XCTAssertEqual(form.form, expected)
        // The defaults: dates in ISO 8601, lists as the client writes them (repeated keys).
        let plain = try await client.value(
            for: BinRequest(path: "/get", parameters: .query(encoding: ["at": Date(timeIntervalSince1970: 0)])))
        XCTAssertEqual(plain.args, ["at": "1970-01-01T00:00:00Z"])
        let lists = try await client.value(
            for: BinRequest(path: "/get", parameters: .query(encoding: ["tag": ["x y", "z"]])))
        XCTAssertEqual(lists.args, ["tag": ["x y", "z"]])
    }

    func testThatHeadersArrive() async throws {
        let bin = try await client.value(for: BinRequest(path: "/headers", headers: ["X-Endpoint-Kit": "yes"]))
        XCTAssertEqual(bin.headers?["X-Endpoint-Kit"], "yes")
    }

    func testThatStatusCodesClassify() async throws {
        let teapot = await client.send(Status(code: 418))
        guard case .serverFailure(let failure) = teapot else { return XCTFail("\(teapot)") }
        XCTAssertEqual(failure.statusCode, 418)
        let noContent = await client.send(Status(code: 204))
        XCTAssertEqual(noContent.value, Empty())
        let serverError = await client.send(Status(code: 503))
        guard case .serverFailure(let unavailable) = serverError else { return XCTFail("\(serverError)") }
        XCTAssertEqual(unavailable.statusCode, 503)
    }

    func testThatBasicAuthChallengeDoesNotHang() async throws {
        let denied = await client.send(BinRequest(path: "/basic-auth/user/pass", totalTimeout: 5))
        guard case .serverFailure(let failure) = denied else { return XCTFail("\(denied)") }
        XCTAssertEqual(failure.statusCode, 401)
        let credential = Data("user:pass".utf8).base64EncodedString()
        let allowed = try await client.value(
            for: BinRequest(path: "/basic-auth/user/pass", headers: ["Authorization": "Basic \(credential)"]))
        XCTAssertEqual(allowed.authenticated, true)
    }

    /// httpbin's `/basic-auth` and `/digest-auth` (werkzeug's own Digest check, MD5 and SHA-256,
    /// `qop=auth`) answered by a credential, and a wrong password ending as the 401 after one answer.
    func testThatBasicAndDigestChallengesAreAnsweredWithACredential() async throws {
        struct Guarded: APIRequest {
            typealias Response = Bin
            var path: RequestPath
            var credential: HTTPCredential?
        }
        let credential = HTTPCredential(user: "user", password: "pass")
        let header = try await client.value(
            for: BinRequest(path: "/basic-auth/user/pass", headers: .authorization(username: "user", password: "pass")))
        XCTAssertEqual(header.authenticated, true)
        let basic = try await client.value(for: Guarded(path: "/basic-auth/user/pass", credential: credential))
        XCTAssertEqual(basic.authenticated, true)
        for algorithm in ["MD5", "SHA-256"] {
            let path = RequestPath(percentEncoded: "/digest-auth/auth/user/pass/\(algorithm)")
            let digest = await client.send(Guarded(path: path, credential: credential))
            XCTAssertEqual(digest.value?.authenticated, true, "\(algorithm): \(digest)")
            let wrong = await client.send(Guarded(path: path, credential: HTTPCredential(user: "user", password: "no")))
            XCTAssertEqual(wrong.serverFailure?.statusCode, 401, "\(algorithm): \(wrong)")
        }
    }

    func testThatRedirectsAreFollowedAndGzipIsDecoded() async throws {
        let redirected = try await client.value(for: BinRequest(path: "/redirect/3"))
        XCTAssertTrue(redirected.url?.hasSuffix("/get") ?? false, "\(String(describing: redirected.url))")
        let gzipped = try await client.value(for: BinRequest(path: "/gzip"))
        XCTAssertEqual(gzipped.gzipped, true)
    }

    func testThatSlowResponsesHitTheTotalDeadline() async {
        let delayed = await client.send(BinRequest(path: "/delay/5", totalTimeout: 1))
        XCTAssertEqual(delayed.transportReason, .timedOut)
        // Bytes keep coming, so only a total deadline can end this one.
        let drip = await client.send(
            BinRequest(
                path: "/drip", parameters: .query(["duration": 5, "numbytes": 10, "delay": 0]), totalTimeout: 1.5))
        XCTAssertEqual(drip.transportReason, .timedOut)
    }

    func testThatRawBytesAndContentTypeValidationWork() async throws {
        struct Bytes: APIRequest {
            typealias Response = Data
            var path: RequestPath { "/bytes/2048" }
        }
        let data = try await client.value(for: Bytes())
        XCTAssertEqual(data.count, 2048)
        struct XML: APIRequest {
            typealias Response = String
            var path: RequestPath { "/xml" }
            var validation: ResponseValidation? { .json }
        }
        let xml = await client.send(XML())
        XCTAssertEqual(xml.transportReason, .unacceptableContentType("application/xml"))
    }

    func testThatResponseHeadersAreExposed() async throws {
        struct ResponseHeaders: APIRequest {
            typealias Response = JSONValue
            var path: RequestPath { "/response-headers" }
            var parameters: RequestParameters { .query(["X-Page-Count": "7"]) }
        }
        let result = await client.send(ResponseHeaders())
        XCTAssertEqual(result.metadata?.header("x-page-count"), "7")
        XCTAssertEqual(result.metadata?.header("X-PAGE-COUNT"), "7")
    }

    func testThatMultipartFieldsAndFilesArriveWithPOSTAndPUT() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("note.txt")
        try Data("hello file".utf8).write(to: small)
        let large = folder.appendingPathComponent("large.txt")
        try Data(repeating: UInt8(ascii: "z"), count: 200_000).write(to: large)
        for method: HTTPMethod in [.post, .put] {
            var form = MultipartFormData()
            form.inMemoryThreshold = 50_000  // the large file goes through a temporary file
            form.append("value", name: "field")
            form.append(json: ["n": 1], name: "items")
            form.append(fileAt: small, name: "note")
            form.append(fileAt: large, name: "large")
            let path = RequestPath(percentEncoded: "/" + method.rawValue.lowercased())
            let bin = try await client.value(for: BinRequest(path: path, method: method, parameters: .multipart(form)))
            XCTAssertEqual(bin.form?["field"], "value", "\(method)")
            XCTAssertEqual(bin.form?["items"], #"{"n":1}"#, "\(method)")
            XCTAssertEqual(bin.files?["note"], "hello file", "\(method)")
            XCTAssertEqual(bin.files?["large"]?.count, 200_000, "\(method)")
        }
    }

    func testThatStreamedLinesDecodeAsNDJSONAndADripArrivesWhole() async throws {
        struct Line: Decodable, Sendable {
            let id: Int
            let url: String
        }
        struct Lines: StreamingRequest {
            var path: RequestPath { "/stream/5" }
            var format: StreamFormat<Line> { .ndjson(Line.self) }
        }
        struct Drip: StreamingRequest {
            var path: RequestPath { "/drip" }
            var parameters: RequestParameters { .query(["numbytes": 10, "duration": 0.5, "delay": 0]) }
            var format: StreamFormat<Data> { .chunks }
        }
        var lines: [Line] = []
        for try await line in client.stream(Lines()) { lines.append(line) }
        XCTAssertEqual(lines.map(\.id), [0, 1, 2, 3, 4])
        XCTAssertTrue(lines.allSatisfy { $0.url.hasSuffix("/stream/5") })
        var dripped = Data()
        for try await chunk in client.stream(Drip()) { dripped.append(chunk) }
        XCTAssertEqual(dripped, Data(repeating: UInt8(ascii: "*"), count: 10))
    }
}
