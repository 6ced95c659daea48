import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The head of an HTTP response, status and header fields, that makes its `HTTPURLResponse`
/// only when someone asks for it.
///
/// On Linux, `HTTPURLResponse.init` costs about as much CPU as libcurl's whole transfer of a small
/// response (it capitalises every header name and parses `Content-Type` character by character).
/// Transports that parse heads themselves (``CurlTransport``, the cache) keep the fields here;
/// validation, caching and the redirect policy read them directly, and the `HTTPURLResponse` is
/// made once, the first time ``response`` is read (for example through
/// ``ResponseMetadata/response``).
package final class ResponseHead: @unchecked Sendable {
    /// The status code.
    let statusCode: Int
    /// The URL the response came from.
    let url: URL?
    /// The field lines as received, or `nil` when the head wraps an `HTTPURLResponse`.
    private let lines: HeaderLines?
    private let httpVersion: String
    /// What ``response`` returns should Foundation refuse the fields: a response with this status
    /// and no fields (shared per status). Foundation refuses neither a status `init?` accepted nor
    /// fields, so this is never seen; it keeps ``response`` total without a trap.
    private let fallback: HTTPURLResponse
    /// The response once made; read and written only under ``making``. Most responses are never
    /// asked for theirs, so a head has no lock of its own (one object and one mutex fewer per
    /// response), and the rare reads share one.
    nonisolated(unsafe) private var made: HTTPURLResponse?
    private static let making = Locked(())
    /// What the exchange took. Set at most once, by the transport that made the head, before it
    /// hands the response on (a head is made when it arrives, the metrics are known at the end of
    /// the body); read-only after that.
    var metrics: TransferMetrics?

    /// A head for a response another stack has already made.
    init(_ response: HTTPURLResponse) {
        statusCode = response.statusCode
        url = response.url
        lines = nil
        httpVersion = "HTTP/1.1"
        fallback = response
        made = response
    }

    /// A head from its field lines; the `HTTPURLResponse` with the fields is made on first use.
    /// - Returns: `nil` when `statusCode` is not a valid HTTP status (100-999).
    init?(url: URL, statusCode: Int, httpVersion: String = "HTTP/1.1", lines: HeaderLines) {
        guard (100...999).contains(statusCode), let fallback = Self.placeholder(for: statusCode) else { return nil }
        self.url = url
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.lines = lines
        self.fallback = fallback
    }

    /// A head from parsed fields; the `HTTPURLResponse` with the fields is made on first use.
    /// - Returns: `nil` when `statusCode` is not a valid HTTP status (100-999).
    package convenience init?(
        url: URL, statusCode: Int, httpVersion: String = "HTTP/1.1", fields: [(name: String, value: String)]
    ) {
        var lines = HeaderLines()
        for field in fields {
            // One line per field, whatever the value holds (a value read back from a cache file).
            let line = "\(field.name): \(field.value)".utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
            line.withUnsafeBytes { lines.append($0) }
        }
        self.init(url: url, statusCode: statusCode, httpVersion: httpVersion, lines: lines)
    }

    /// This head with other metrics: the same object when they are equal, a copy otherwise (a
    /// head may be shared, e.g. by coalesced requests).
    func replacingMetrics(_ metrics: TransferMetrics?) -> ResponseHead {
        guard metrics != self.metrics else { return self }
        let copy: ResponseHead
        if let lines, let url,
            let head = ResponseHead(url: url, statusCode: statusCode, httpVersion: httpVersion, lines: lines)
        {
            copy = head
        } else {
            copy = ResponseHead(response)
        }
        copy.metrics = metrics
        return copy
    }

    private static let placeholders = Locked<[Int: HTTPURLResponse]>([:])

    /// A response with `status` and no fields, made once per status (making one per response
    /// costs about 2 us on Linux, where Foundation derives a file name from the URL).
    private static func placeholder(for status: Int) -> HTTPURLResponse? {
        placeholders.withLock { made in
            if let existing = made[status] { return existing }
            let response = HTTPURLResponse(
                url: URL(fileURLWithPath: "/"), statusCode: status, httpVersion: nil, headerFields: nil)
            made[status] = response
            return response
        }
    }

    /// The Foundation response, made on first use.
    var response: HTTPURLResponse {
        if let made = Self.making.withLock({ _ in made }) { return made }
        // Made outside the shared lock (it is slow); if two threads make it, the first one stored
        // is the one every reader gets. A head with fields always has a URL; one without wraps a
        // response already made.
        let response =
            url.flatMap {
                HTTPURLResponse(url: $0, statusCode: statusCode, httpVersion: httpVersion, headerFields: dictionary)
            } ?? fallback
        return Self.making.withLock { _ in
            if let made { return made }
            made = response
            return response
        }
    }
    /// The value of the field `name` (case-insensitive); repeated fields joined with ", ".
    func value(forHTTPHeaderField name: String) -> String? {
        guard let lines else { return response.value(forHTTPHeaderField: name) }
        return lines.value(for: name)
    }

    /// The body length the head declares (`Content-Length`), or -1.
    var expectedContentLength: Int64 {
        guard let lines else { return response.expectedContentLength }
        return lines.contentLength ?? -1
    }

    /// The fields as (name, value) pairs, repeated names joined with ", " (RFC 9110 §5.3).
    var headerFields: [(name: String, value: String)] {
        guard let lines else {
            return response.allHeaderFields.compactMap { key, value in
                (key as? String).map { ($0, "\(value)") }
            }
        }
        return Self.joining(lines.fields)
    }

    /// The fields as a dictionary, repeated names joined with ", ".
    var dictionary: [String: String] {
        guard let lines else { return Self.dictionary(joining: headerFields) }
        return Self.dictionary(joining: lines.fields)
    }

    /// `fields` with repeated names (compared ignoring case) joined with ", " under the first
    /// one's spelling, in arrival order (RFC 9110 §5.3). Linear in the number of fields: a head
    /// may carry tens of thousands of them.
    static func joining(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        result.reserveCapacity(fields.count)
        var indexByName: [String: Int] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let index = indexByName[key] {
                result[index].value += ", " + field.value
            } else {
                indexByName[key] = result.count
                result.append(field)
            }
        }
        return result
    }

    /// ``joining(_:)`` as a dictionary.
    static func dictionary(joining fields: [(name: String, value: String)]) -> [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(fields.count)
        for field in joining(fields) { result[field.name] = field.value }
        return result
    }
}
