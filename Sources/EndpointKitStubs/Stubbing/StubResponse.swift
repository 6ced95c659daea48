@_spi(Internal) import EndpointKit
import Foundation

/// What a stub answers: an HTTP response (data, JSON, text, a file fixture), a transport error,
/// or the endpoint's sample response, optionally after a delay.
///
/// ```swift
/// .json(#"{"id":7,"name":"Ada"}"#)
/// .json(["id": 7, "name": "Ada"], status: 201)
/// .status(404, body: "no such user")
/// .fixture(URL(fileURLWithPath: "Fixtures/user.json"))
/// .failure(.notConnected)
/// .delayed(0.5, .json("[]"))
/// .stream([.event("hi", id: "1"), .event("there", id: "2", after: 0.1)])
/// .sample                                  // the endpoint's SampleResponseProviding answer
/// ```
public struct StubResponse: Sendable, CustomStringConvertible {
    enum Content: Sendable {
        case http(status: Int, headers: HTTPHeaders, body: Data)
        case file(URL, status: Int, headers: HTTPHeaders)
        case stream(status: Int, headers: HTTPHeaders, chunks: [StubStreamChunk], ending: TransportError.Reason?)
        case failure(TransportError)
        case sample(name: String?, status: Int?)
    }

    let content: Content
    /// Seconds to wait before answering. 0 unless built with ``delayed(_:_:)``.
    public private(set) var delay: TimeInterval = 0

    init(_ content: Content) { self.content = content }

    /// A response with these bytes.
    /// - Parameters:
    ///   - data: The body.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: Response headers. None by default.
    public static func data(_ data: Data, status: Int = 200, headers: HTTPHeaders = .empty) -> StubResponse {
        StubResponse(.http(status: status, headers: headers, body: data))
    }

    /// A JSON response whose body is `json` as written, with `Content-Type: application/json`.
    /// - Parameters:
    ///   - json: The body text.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: More response headers. None by default.
    public static func json(_ json: String, status: Int = 200, headers: HTTPHeaders = .empty) -> StubResponse {
        .data(Data(json.utf8), status: status, headers: withContentType("application/json", headers))
    }

    /// A JSON response from a ``/EndpointKit/JSONValue`` literal, with `Content-Type: application/json`.
    /// - Parameters:
    ///   - value: The body, written with sorted keys.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: More response headers. None by default.
    public static func json(_ value: JSONValue, status: Int = 200, headers: HTTPHeaders = .empty) -> StubResponse {
        .json(value.description, status: status, headers: headers)
    }

    /// A JSON response encoding `value`. A value that cannot be encoded answers with a transport
    /// error saying so.
    /// - Parameters:
    ///   - value: The body.
    ///   - encoder: The encoder; a `JSONEncoder` with sorted keys by default.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: More response headers. None by default.
    public static func json<Value: Encodable>(
        encoding value: Value, encoder: JSONEncoder? = nil, status: Int = 200, headers: HTTPHeaders = .empty
    ) -> StubResponse {
        let encoder = encoder ?? sortedEncoder()
        do {
            let data = try encoder.encode(value)
            return .data(data, status: status, headers: withContentType("application/json", headers))
        } catch {
            return .failure(.other, message: "The stub body \(Value.self) could not be encoded: \(error)")
        }
    }

    /// A UTF-8 text response.
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The HTTP status; 200 by default.
    ///   - contentType: `text/plain; charset=utf-8` by default.
    public static func text(
        _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
    ) -> StubResponse {
        .data(Data(text.utf8), status: status, headers: ["Content-Type": contentType])
    }

    /// A response with this HTTP status and, optionally, a text body.
    /// - Parameters:
    ///   - code: The HTTP status.
    ///   - body: The body as UTF-8 text; empty by default.
    ///   - headers: Response headers. None by default.
    public static func status(_ code: Int, body: String = "", headers: HTTPHeaders = .empty) -> StubResponse {
        .data(Data(body.utf8), status: code, headers: headers)
    }

    /// A response whose body is read from a file when the stub answers. A file that cannot be read
    /// answers with a transport error naming its path.
    ///
    /// Without a `Content-Type` in `headers`, one is chosen from the extension: `json`, `txt`,
    /// `html`, `xml`, else `application/octet-stream`.
    /// - Parameters:
    ///   - url: The file, for example `URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    ///     .appendingPathComponent("Fixtures/user.json")`.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: Response headers. None by default.
    public static func fixture(_ url: URL, status: Int = 200, headers: HTTPHeaders = .empty) -> StubResponse {
        StubResponse(.file(url, status: status, headers: withContentType(contentType(of: url), headers)))
    }

    /// A response whose body arrives in pieces, each after its delay: what a `StreamingRequest`
    /// (EndpointKitStreaming) reads its elements from, so that code consuming a stream can be
    /// tested without a server. The pieces honour the request's back-pressure (a full buffer holds the
    /// next piece back) and its idle and total timeouts. A request that does not stream gets the
    /// whole body at the end, as does a status the request does not accept.
    ///
    /// ```swift
    /// stubs.stub(.request(LiveScores.self), with: .stream([.event("1-0", id: "1"), .event("2-0", id: "2", after: 0.1)]))
    /// ```
    ///
    /// An event stream reconnects when the body ends (as it would from a server): give the
    /// request `StreamReconnection.never`, or stub a sequence ending with `.status(204)`.
    /// - Parameters:
    ///   - chunks: The pieces, in order.
    ///   - status: The HTTP status; 200 by default.
    ///   - headers: Response headers. `Content-Type: text/event-stream` when none is given and a
    ///     piece looks like an event (starts with `data:`, `event:`, `id:` or `retry:`).
    ///   - failure: How the body ends: `nil` (the default) completely, or with a transport failure
    ///     of this reason after the last piece (`.connectionLost` for a cut stream).
    public static func stream(
        _ chunks: [StubStreamChunk], status: Int = 200, headers: HTTPHeaders = .empty,
        endingWith failure: TransportError.Reason? = nil
    ) -> StubResponse {
        let looksLikeEvents = chunks.first.map { chunk in
            ["data:", "event:", "id:", "retry:"].contains { chunk.data.starts(with: Data($0.utf8)) }
        }
        let type = looksLikeEvents == true ? "text/event-stream" : "application/octet-stream"
        return StubResponse(
            .stream(status: status, headers: withContentType(type, headers), chunks: chunks, ending: failure))
    }

    /// A transport error instead of a response.
    public static func failure(_ error: TransportError) -> StubResponse { StubResponse(.failure(error)) }

    /// A transport error with this reason.
    /// - Parameters:
    ///   - reason: What went wrong, such as `.timedOut` or `.notConnected`.
    ///   - message: The message; a sentence naming the reason by default.
    public static func failure(_ reason: TransportError.Reason, message: String? = nil) -> StubResponse {
        .failure(TransportError(reason, message: message ?? "Stubbed transport error (\(reason))."))
    }

    /// The ``SampleResponseProviding/sampleResponse`` of the endpoint being answered.
    public static var sample: StubResponse { StubResponse(.sample(name: nil, status: nil)) }

    /// The endpoint's sample response, or one of its ``SampleResponseProviding/sampleResponses``,
    /// with another HTTP status: "the sample, but with 401" without copying its body.
    /// - Parameters:
    ///   - name: The named sample; `nil` (the default) for ``SampleResponseProviding/sampleResponse``.
    ///   - status: The status to answer with instead of the sample's own; `nil` keeps it.
    public static func sample(_ name: String? = nil, status: Int? = nil) -> StubResponse {
        StubResponse(.sample(name: name, status: status))
    }

    /// This response with another status (an HTTP, file or stream answer; a transport error has none).
    func replacingStatus(with status: Int) -> StubResponse? {
        var copy: StubResponse
        switch content {
        case .http(_, let headers, let body): copy = StubResponse(.http(status: status, headers: headers, body: body))
        case .file(let url, _, let headers): copy = StubResponse(.file(url, status: status, headers: headers))
        case .stream(_, let headers, let chunks, let ending):
            copy = StubResponse(.stream(status: status, headers: headers, chunks: chunks, ending: ending))
        case .failure, .sample: return nil
        }
        copy.delay = delay
        return copy
    }

    /// `response`, answered `seconds` later. A request whose idle or total timeout comes first
    /// times out with that ``/EndpointKit/TransportError/timeoutLimit``; a cancelled one ends at once.
    public static func delayed(_ seconds: TimeInterval, _ response: StubResponse) -> StubResponse {
        var copy = response
        copy.delay += max(seconds, 0)
        return copy
    }

    /// A short description, such as `200, 42 bytes` or `transport error (timedOut)`.
    public var description: String {
        let prefix = delay > 0 ? "after \(delay) s, " : ""
        switch content {
        case .http(let status, _, let body): return prefix + "\(status), \(body.count) bytes"
        case .file(let url, let status, _): return prefix + "\(status), file \(url.path)"
        case .stream(let status, _, let chunks, let ending):
            let end = ending.map { ", then \($0)" } ?? ""
            return prefix + "\(status), stream of \(chunks.count) chunks\(end)"
        case .failure(let error): return prefix + "transport error (\(error.reason))"
        case .sample(let name, let status):
            return prefix + (name.map { "sample \"\($0)\"" } ?? "sample") + (status.map { " with status \($0)" } ?? "")
        }
    }

    private static func withContentType(_ type: String, _ headers: HTTPHeaders) -> HTTPHeaders {
        headers["Content-Type"] == nil
            ? HTTPHeaders([.init(name: "Content-Type", value: type)]).merging(headers) : headers
    }

    private static func contentType(of url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "xml": return "application/xml"
        default: return "application/octet-stream"
        }
    }

    private static func sortedEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension StubResponse {
    /// The status, headers and body of an HTTP response (made with `data`, `json`, `text` or
    /// `status`); `nil` for a file, stream, failure or sample. For tools that serve samples over
    /// real HTTP (`Bench/openapi/roundtrip.sh`).
    @_spi(Internal) public var httpContent: (status: Int, headers: HTTPHeaders, body: Data)? {
        guard case .http(let status, let headers, let body) = content else { return nil }
        return (status, headers, body)
    }
}
