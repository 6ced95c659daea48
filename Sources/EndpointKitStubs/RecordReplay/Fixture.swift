import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One recorded exchange as stored on disk: pretty JSON with sorted keys, one file per request.
///
/// ```json
/// {
///   "request" : { "headers" : { "Authorization" : "REDACTED" }, "method" : "GET", "url" : "http://…/users/7" },
///   "response" : { "body" : "{\"id\":7}", "headers" : { "Content-Type" : "application/json" }, "status" : 200 },
///   "version" : 1
/// }
/// ```
///
/// A body is stored as text under `body` when it is valid UTF-8 without control characters
/// (other than tab, CR and LF), otherwise as base64 under `bodyBase64`; no body, no key. Empty
/// header lists are left out too.
struct Fixture: Codable, Equatable {
    static let currentVersion = 1

    struct Request: Codable, Equatable {
        var method: String
        var url: String
        var headers: [String: String]?
        var body: String?
        var bodyBase64: String?
    }

    struct Response: Codable, Equatable {
        var status: Int
        var headers: [String: String]?
        var body: String?
        var bodyBase64: String?
    }

    var version: Int
    var request: Request
    var response: Response

    /// The exchange with secrets replaced by `redactor`.
    /// - Parameters:
    ///   - request: The request as sent.
    ///   - requestBody: Its body (an upload file's bytes, if it had one; `nil` when too large).
    ///   - response: The response head.
    ///   - responseBody: The response body, also when it went to a download file.
    ///   - redactor: What to hide.
    init(request: URLRequest, requestBody: Data?, response: HTTPURLResponse, responseBody: Data, redactor: Redactor) {
        var withBody = request
        withBody.httpBody = requestBody
        let sent = redactor.redact(withBody)
        let (requestText, requestBase64) = Self.store(sent.httpBody ?? Data())
        self.request = Request(
            method: sent.httpMethod ?? "GET", url: sent.url?.absoluteString ?? "",
            headers: Self.nonEmpty(sent.allHTTPHeaderFields ?? [:]), body: requestText, bodyBase64: requestBase64)
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        let (text, base64) = Self.store(redactor.redactBody(responseBody, contentType: contentType))
        self.response = Response(
            status: response.statusCode, headers: Self.nonEmpty(redactor.redact(headers)), body: text,
            bodyBase64: base64)
        version = Self.currentVersion
    }

    /// Reads and validates the fixture at `url`.
    static func load(from url: URL, for request: URLRequest) -> Result<Fixture, FixtureError> {
        let fail = { (kind: FixtureError.Kind) in FixtureError(kind, path: url.path, request: request.label) }
        guard FileManager.default.fileExists(atPath: url.path) else { return .failure(fail(.missing)) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(fail(.malformed("the file cannot be read: \(error)")))
        }
        let fixture: Fixture
        do {
            fixture = try JSONDecoder().decode(Fixture.self, from: data)
        } catch let error as DecodingError {
            return .failure(fail(.malformed(describe(error))))
        } catch {
            return .failure(fail(.malformed("\(error)")))
        }
        if let problem = fixture.problem { return .failure(fail(.malformed(problem))) }
        return .success(fixture)
    }

    /// Writes the fixture as stable pretty JSON, creating folders as needed.
    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(contentsOf: Array("\n".utf8))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    /// The recorded response, answered to `request` (progress, download file and size cap
    /// included, unless `reportsProgress` is `false` because a real transport already did).
    func transportResponse(
        for request: TransportRequest, reportsProgress: Bool = true
    ) -> Result<TransportResponse, TransportError> {
        // `problem` has already checked the body, so this fallback is never used.
        let body = (try? Self.body(text: response.body, base64: response.bodyBase64, at: "response")) ?? Data()
        return TransportResponse.make(
            for: request, status: response.status, headers: response.headers ?? [:], body: body,
            reportsProgress: reportsProgress)
    }

    /// What makes a decoded fixture unusable, if anything.
    private var problem: String? {
        guard version == Self.currentVersion else {
            return "unsupported version \(version) (this EndpointKit reads version \(Self.currentVersion))"
        }
        guard (100...599).contains(response.status) else {
            return "response.status \(response.status) is not an HTTP status (100...599)"
        }
        do {
            _ = try Self.body(text: request.body, base64: request.bodyBase64, at: "request")
            _ = try Self.body(text: response.body, base64: response.bodyBase64, at: "response")
        } catch {
            return error.problem
        }
        return nil
    }

    private struct BodyProblem: Error {
        let problem: String
    }

    private static func body(text: String?, base64: String?, at place: String) throws(BodyProblem) -> Data {
        switch (text, base64) {
        case (nil, nil): return Data()
        case (let text?, nil): return Data(text.utf8)
        case (nil, let base64?):
            guard let data = Data(base64Encoded: base64) else {
                throw BodyProblem(problem: "\(place).bodyBase64 is not valid base64")
            }
            return data
        case (.some, .some): throw BodyProblem(problem: "\(place) has both body and bodyBase64")
        }
    }

    private static func store(_ body: Data) -> (text: String?, base64: String?) {
        guard !body.isEmpty else { return (nil, nil) }
        let isText = !body.contains { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }
        if isText, let text = String(data: body, encoding: .utf8) { return (text, nil) }
        return (nil, body.base64EncodedString())
    }

    private static func nonEmpty(_ headers: [String: String]) -> [String: String]? {
        headers.isEmpty ? nil : headers
    }

    /// A decoding error in words, with the path of the offending key: `missing key "status" in
    /// response`, `response.status is a String, not an Int`.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = context.underlyingError.map { " (\($0))" } ?? ""
            return "the file is not valid JSON: \(context.debugDescription)\(detail)"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let place = context.codingPath.isEmpty ? "the top level" : path(context.codingPath)
            return "missing key \"\(key.stringValue)\" in \(place)"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(type): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null, expected \(type)"
        @unknown default:
            return "\(error)"
        }
    }
}
