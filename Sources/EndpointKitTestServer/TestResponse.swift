import Foundation

/// What a ``TestServer`` route answers: a normal response, or one of several scripted faults.
///
/// Header lists are written in order, exactly as given. The server only adds framing headers
/// (`Content-Length` or `Transfer-Encoding`, and `Connection` when it is closing) that the list
/// does not already contain.
public enum TestResponse: Sendable {
    /// A normal response. Content-Length is added automatically (unless `chunked` is used).
    ///
    /// No body is sent for `HEAD` requests or for 1xx/204/304 statuses. A `Content-Length` in
    /// `headers` is sent verbatim instead of the computed one (useful to script mismatches).
    case response(status: Int, headers: [(String, String)], body: Data)
    /// Sends status + headers + body using chunked transfer encoding, split into the given chunk
    /// sizes, with an optional delay between chunks.
    ///
    /// Empty chunks are skipped (an empty chunk would end the body). To an HTTP/1.0 client the
    /// chunks are sent unframed and the connection is closed afterwards.
    case chunked(status: Int, headers: [(String, String)], chunks: [Data], delayBetweenChunks: TimeInterval)
    /// Sends status, headers and the chunks as ``chunked(status:headers:chunks:delayBetweenChunks:)``
    /// does, then stalls without ending the body (until the server stops or the client
    /// disconnects): a transfer that moved, then stopped.
    case chunkedThenStall(status: Int, headers: [(String, String)], chunks: [Data], delayBetweenChunks: TimeInterval)
    /// Sends status and headers, then a chunked body that `body` writes as it goes (see
    /// ``TestStreamWriter``): a slow producer, an endless feed, a stream cut in the middle. The
    /// closure runs on the connection's thread and may block.
    ///
    /// For `HEAD`, a 1xx, 204 or 304 status, or an HTTP/1.0 client, only the head is sent.
    case streamed(status: Int, headers: [(String, String)], body: @Sendable (TestStreamWriter) -> Void)
    /// Reads the request and never answers (until the server stops or the client disconnects).
    case stall
    /// Sends the status line and headers (with the given Content-Length), then stalls without
    /// sending the body.
    case stallAfterHeaders(status: Int, headers: [(String, String)], contentLength: Int)
    /// Sends status+headers declaring `declaredLength` bytes, then writes `body` (shorter) and
    /// closes the connection.
    case closeMidBody(status: Int, headers: [(String, String)], declaredLength: Int, body: Data)
    /// Writes these raw bytes (e.g. not HTTP at all, or an invalid status line) and closes.
    ///
    /// With `closeAfter: false` the connection stays open and the server reads the next request.
    case raw(Data, closeAfter: Bool)
    /// Closes the connection immediately without writing anything (reset before status line).
    ///
    /// The close is an orderly one (FIN): the client sees the connection end before any byte of
    /// a response arrived.
    case close
    /// Writes these raw bytes (possibly none), then resets the connection: a TCP RST (`SO_LINGER`
    /// 0) instead of an orderly close, as a crashing server or a middlebox does.
    ///
    /// When `bytes` is not empty the reset follows after a short pause, so that the client has
    /// read them and is waiting for the rest. Use it to cut a response anywhere: before the
    /// status line, in the headers, in the body.
    case reset(afterSending: Data)
    /// Waits, then produces the wrapped response (delay in seconds; must not block other
    /// connections).
    ///
    /// The wait ends early, closing the connection, when the server stops.
    indirect case delayed(TimeInterval, TestResponse)
}

extension TestResponse {
    /// Header fields as `(name, value)` pairs, in order.
    typealias HeaderFields = [(String, String)]

    /// A JSON response built with `JSONSerialization` (sorted keys, unescaped slashes) and
    /// `Content-Type: application/json`.
    ///
    /// If `object` is not valid for `JSONSerialization`, the response is a 500 with a plain-text
    /// explanation instead, so a mistake in a test shows up as a failing request, not a crash.
    public static func json(_ object: Any, status: Int = 200, headers: [(String, String)] = []) -> TestResponse {
        guard JSONSerialization.isValidJSONObject(object) || isJSONFragment(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else {
            return .text("TestResponse.json: value is not JSON-serializable: \(object)", status: 500)
        }
        return .response(
            status: status, headers: merging(["Content-Type": "application/json"], into: headers), body: data)
    }

    /// A JSON response whose body is `string` verbatim, with `Content-Type: application/json`.
    public static func json(string: String, status: Int = 200, headers: [(String, String)] = []) -> TestResponse {
        .response(
            status: status, headers: merging(["Content-Type": "application/json"], into: headers),
            body: Data(string.utf8))
    }

    /// A text response encoded as UTF-8.
    public static func text(
        _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
        headers: [(String, String)] = []
    ) -> TestResponse {
        .response(status: status, headers: merging(["Content-Type": contentType], into: headers), body: Data(text.utf8))
    }

    /// A response with the given status, no extra headers and an empty body.
    public static func status(_ code: Int) -> TestResponse {
        .response(status: code, headers: [], body: Data())
    }

    /// A redirect to `location` (302 by default) with an empty body.
    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        .response(status: status, headers: [("Location", location)], body: Data())
    }

    /// Adds each default header unless `headers` already has a field with that name
    /// (case-insensitive); defaults come first.
    static func merging(_ defaults: KeyValuePairs<String, String>, into headers: HeaderFields) -> HeaderFields {
        var result: [(String, String)] = []
        for (name, value) in defaults where !headers.contains(where: { ASCII.equalsIgnoringCase($0.0, name) }) {
            result.append((name, value))
        }
        return result + headers
    }

    private static func isJSONFragment(_ object: Any) -> Bool {
        object is String || object is NSNull || object is Bool || object is Int || object is Double
            || object is NSNumber
    }
}
