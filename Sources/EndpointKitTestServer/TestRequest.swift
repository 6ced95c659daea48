import Foundation

/// An HTTP request as received by a ``TestServer``, handed to route handlers.
///
/// Nothing is normalized: the method, target, path and header names keep the exact spelling the
/// client sent, and headers keep their order (including repeated fields).
public struct TestRequest: Sendable {
    /// The request method exactly as sent, for example `"GET"`.
    public let method: String
    /// The raw request target, for example `"/echo?a=1&a=2"`.
    public let target: String
    /// The raw path: the part of ``target`` before `?`, **not** percent-decoded.
    ///
    /// For an absolute-form target (`http://host/p?q`) this is the path after the authority.
    public let path: String
    /// The query parameters in order, percent-decoded; `+` stays `+` (it is not a space in a query).
    public let query: [(name: String, value: String)]
    /// The header fields in the order received, names with their original case.
    public let headers: [(name: String, value: String)]
    /// The request body after de-chunking; empty when there was none.
    public let body: Data
    /// The protocol version from the request line, for example `"HTTP/1.1"`.
    public let version: String

    /// Creates a request, deriving ``path`` and ``query`` from `target`.
    ///
    /// The server builds these itself; the initializer is public so handlers can be unit-tested.
    public init(
        method: String, target: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
        version: String = "HTTP/1.1"
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.version = version
        var pathPart = Substring(target)
        if let schemeEnd = pathPart.range(of: "://"), !pathPart.hasPrefix("/") {
            let afterScheme = pathPart[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
            pathPart = afterScheme[authorityEnd...]
        }
        if let questionMark = pathPart.firstIndex(of: "?") {
            self.path = String(pathPart[..<questionMark])
            self.query = URLEncoding.parsePairs(pathPart[pathPart.index(after: questionMark)...], plusAsSpace: false)
        } else {
            self.path = String(pathPart)
            self.query = []
        }
    }

    /// The value of the first header field named `name` (compared case-insensitively), or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The values of every header field named `name` (compared case-insensitively), in order.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The decoded value of the first query parameter named `name` (case-sensitive), or `nil`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The decoded values of every query parameter named `name` (case-sensitive), in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }

    /// The body decoded as `application/x-www-form-urlencoded` (`+` is a space), in order.
    public var formFields: [(name: String, value: String)] {
        URLEncoding.parsePairs(Substring(String(decoding: body, as: UTF8.self)), plusAsSpace: true)
    }
}
