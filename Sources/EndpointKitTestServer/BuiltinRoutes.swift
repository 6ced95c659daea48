import Foundation

/// The routes every new ``TestServer`` starts with. Tests may override any of them.
///
/// | Route | Answer |
/// | --- | --- |
/// | `/echo` | the request as JSON, see ``TestResponse/echo(_:status:)`` |
/// | `/status/{code}` | that status (200–599), empty body; 401 adds `WWW-Authenticate`, 3xx a `Location: /echo` |
/// | `/delay/{ms}` | the echo JSON after `ms` milliseconds |
/// | `/bytes/{n}` | `n` bytes of ``TestServer/patternBytes(count:)``; `?chunk=SIZE` sends them chunked |
/// | `/json/{n}` | an array of `n` objects `{"active","id","name","score"}` |
/// | `/redirect/{n}` | a 302 chain of `n` hops ending at `/echo` |
/// | `/resumable/{n}` | `n` pattern bytes with an `ETag`, honouring `Range: bytes=FROM-` (206, or 416 past the end) |
/// | `/sink` | reads the body and answers `{"pattern":..,"received":N}`: its size, and whether it is pattern bytes |
/// | `/fault/stall` | never answers |
/// | `/fault/stall-after-headers` | headers declaring `?length=` (default 1024) bytes, then nothing |
/// | `/fault/close-mid-body` | declares 1000 bytes, sends 100, closes |
/// | `/fault/garbage` | bytes that are not HTTP, then closes |
/// | `/fault/close` | closes without answering |
/// | `/fault/reset` | resets the connection (TCP RST) without answering |
/// | `/fault/invalid-status` | `HTTP/1.1 abc`, then closes |
/// | `/fault/drip?chunks=N&delay=ms` | `N` (default 5) chunks of text `delay` (default 100) ms apart; `&stall=1` then stalls instead of ending the body |
enum BuiltinRoutes {
    static let maxBytes = 1024 * 1024 * 1024
    static let maxJSONItems = 1_000_000
    static let maxRedirects = 100
    static let maxDripChunks = 10_000

    static func install(into router: inout Router) {
        router.add("/echo") { .echo($0) }
        router.add("/status/*", status)
        router.add("/delay/*") { request in
            number(after: "/delay/", in: request, max: 600_000).map { .delayed(Double($0) / 1000, .echo(request)) }
                ?? badRequest("/delay/{ms} needs 0...600000 milliseconds")
        }
        router.add("/bytes/*", bytes)
        router.add("/resumable/*", resumable)
        router.add("/sink") { request in
            let body = request.body
            let isPattern = body == TestServer.patternBytes(count: body.count)
            return .json(string: "{\"pattern\":\(isPattern),\"received\":\(body.count)}")
        }
        router.add("/json/*") { request in
            number(after: "/json/", in: request, max: maxJSONItems).map(jsonItems)
                ?? badRequest("/json/{n} needs 0...\(maxJSONItems) items")
        }
        router.add("/redirect/*") { request in
            guard let count = number(after: "/redirect/", in: request, max: maxRedirects) else {
                return badRequest("/redirect/{n} needs 0...\(maxRedirects) hops")
            }
            return count == 0 ? .echo(request) : .redirect(to: count == 1 ? "/echo" : "/redirect/\(count - 1)")
        }
        installFaults(into: &router)
    }

    private static func installFaults(into router: inout Router) {
        router.add("/fault/stall") { _ in .stall }
        router.add("/fault/stall-after-headers") { request in
            let length = request.queryValue("length").flatMap { Int($0) } ?? 1024
            return .stallAfterHeaders(
                status: 200, headers: [("Content-Type", "application/octet-stream")], contentLength: max(length, 1))
        }
        router.add("/fault/close-mid-body") { _ in
            .closeMidBody(
                status: 200, headers: [("Content-Type", "application/octet-stream")], declaredLength: 1000,
                body: TestServer.patternBytes(count: 100))
        }
        router.add("/fault/garbage") { _ in
            .raw(Data("\u{1}\u{2}garbage: this is not HTTP at all\u{0}\u{7F}\r\n\r\n".utf8), closeAfter: true)
        }
        router.add("/fault/close") { _ in .close }
        router.add("/fault/reset") { _ in .reset(afterSending: Data()) }
        router.add("/fault/invalid-status") { _ in .raw(Data("HTTP/1.1 abc\r\n\r\n".utf8), closeAfter: true) }
        router.add("/fault/drip") { request in
            let count = min(max(request.queryValue("chunks").flatMap { Int($0) } ?? 5, 1), maxDripChunks)
            let delay = max(request.queryValue("delay").flatMap { Double($0) } ?? 100, 0) / 1000
            let chunks = (0..<count).map { Data("chunk \($0)\n".utf8) }
            let headers = [("Content-Type", "text/plain; charset=utf-8")]
            if request.queryValue("stall") == "1" {
                return .chunkedThenStall(status: 200, headers: headers, chunks: chunks, delayBetweenChunks: delay)
            }
            return .chunked(status: 200, headers: headers, chunks: chunks, delayBetweenChunks: delay)
        }
    }

    private static func status(_ request: TestRequest) -> TestResponse {
        guard let code = number(after: "/status/", in: request, max: 599), code >= 200 else {
            return badRequest("/status/{code} needs a code in 200...599")
        }
        var headers: [(String, String)] = []
        if code == 401 { headers.append(("WWW-Authenticate", "Basic realm=\"test\"")) }
        if (300..<400).contains(code) && code != 304 { headers.append(("Location", "/echo")) }
        return .response(status: code, headers: headers, body: Data())
    }

    private static func bytes(_ request: TestRequest) -> TestResponse {
        guard let count = number(after: "/bytes/", in: request, max: maxBytes) else {
            return badRequest("/bytes/{n} needs 0...\(maxBytes) bytes")
        }
        let data = TestServer.patternBytes(count: count)
        let headers = [("Content-Type", "application/octet-stream")]
        guard let chunkSize = request.queryValue("chunk").flatMap({ Int($0) }), chunkSize > 0 else {
            return .response(status: 200, headers: headers, body: data)
        }
        let chunks = stride(from: 0, to: count, by: chunkSize).map { data[$0..<min($0 + chunkSize, count)] }
        return .chunked(status: 200, headers: headers, chunks: chunks, delayBetweenChunks: 0)
    }

    /// Pattern bytes that a download can resume: an `ETag` naming the size, and `Range: bytes=FROM-`
    /// (with a matching `If-Range`, or none) answered with the rest.
    private static func resumable(_ request: TestRequest) -> TestResponse {
        guard let count = number(after: "/resumable/", in: request, max: maxBytes) else {
            return badRequest("/resumable/{n} needs 0...\(maxBytes) bytes")
        }
        let etag = "\"pattern-\(count)\""
        var headers = [("Content-Type", "application/octet-stream"), ("ETag", etag), ("Accept-Ranges", "bytes")]
        let validatorMatches = request.header("If-Range").map { $0 == etag } ?? true
        guard let range = request.header("Range"), range.hasPrefix("bytes="), range.hasSuffix("-"), validatorMatches,
            let start = Int(range.dropFirst("bytes=".count).dropLast())
        else {
            return .response(status: 200, headers: headers, body: TestServer.patternBytes(count: count))
        }
        guard start < count else {
            return .response(status: 416, headers: [("Content-Range", "bytes */\(count)")], body: Data())
        }
        headers.append(("Content-Range", "bytes \(start)-\(count - 1)/\(count)"))
        return .response(
            status: 206, headers: headers, body: TestServer.patternBytes(count: count).subdata(in: start..<count))
    }

    private static func jsonItems(_ count: Int) -> TestResponse {
        var text = "["
        text.reserveCapacity(count * 60 + 2)
        for index in 0..<count {
            if index > 0 { text += "," }
            let active = index % 2 == 0 ? "true" : "false"
            text += "{\"active\":\(active),\"id\":\(index),\"name\":\"item \(index)\",\"score\":\(Double(index) * 1.5)}"
        }
        text += "]"
        return .json(string: text)
    }

    /// The non-negative integer that makes up the rest of the path after `prefix`, if `<= max`.
    private static func number(after prefix: String, in request: TestRequest, max: Int) -> Int? {
        let rest = request.path.utf8.dropFirst(prefix.utf8.count)
        guard !rest.isEmpty, rest.count <= 10, rest.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int(String(decoding: rest, as: UTF8.self)), value <= max
        else { return nil }
        return value
    }

    private static func badRequest(_ message: String) -> TestResponse {
        .text(message + "\n", status: 400)
    }
}
