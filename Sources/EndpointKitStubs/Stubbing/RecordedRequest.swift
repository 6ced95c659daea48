import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as a test double received it: what stub matchers look at and what tests assert on.
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The request as built by the client.
    public let urlRequest: URLRequest
    /// The endpoint value it was built from, when an ``/EndpointKit/APIClient`` sent it.
    public let endpoint: (any APIRequest)?
    /// The file an upload body was streamed from (a file upload or a large multipart body), if
    /// any. It may be gone by the time the test looks: ``body`` keeps its bytes.
    public let bodyFile: URL?
    /// The body: `httpBody`, or the upload file's bytes when the file is at most 16 MiB; empty
    /// when there is no body or the upload file is larger.
    public let body: Data
    /// The body's size in bytes, also for an upload file too large to keep.
    public let bodySize: Int64

    /// Creates a recorded request.
    /// - Parameters:
    ///   - urlRequest: The built request; its `httpBody` is the body.
    ///   - endpoint: The endpoint it was built from; `nil` by default.
    public init(urlRequest: URLRequest, endpoint: (any APIRequest)? = nil) {
        self.urlRequest = urlRequest
        self.endpoint = endpoint
        bodyFile = nil
        body = urlRequest.httpBody ?? Data()
        bodySize = Int64(body.count)
    }

    /// Records what a transport was asked to send, reading an upload file while it still exists.
    init(_ request: TransportRequest, endpoint: (any APIRequest)?) {
        let captured = CapturedBody(request)
        urlRequest = request.urlRequest
        self.endpoint = endpoint
        bodyFile = request.bodyFile
        body = captured.data ?? Data()
        bodySize = captured.size
    }

    /// The method (`GET` when the request has none).
    public var method: HTTPMethod { HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET") }

    /// The full URL.
    public var url: URL? { urlRequest.url }

    /// The URL path, percent-encoded as sent (`/users/a%20b`).
    public var path: String {
        guard let url = urlRequest.url else { return "" }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
    }

    /// The query parameters in order, percent-decoded.
    public var queryItems: [(name: String, value: String)] {
        guard let url = urlRequest.url,
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return [] }
        return items.map { ($0.name, $0.value ?? "") }
    }

    /// The value of the first query parameter named `name`, percent-decoded.
    public func queryValue(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// The value of a header (case-insensitive).
    public func header(_ name: String) -> String? { urlRequest.value(forHTTPHeaderField: name) }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as JSON, or `nil` when it is not JSON.
    public var bodyJSON: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: body) }

    /// The endpoint if it is of type `Request`.
    public func endpoint<Request: APIRequest>(as type: Request.Type) -> Request? { endpoint as? Request }

    /// `METHOD URL`, with the endpoint type when known.
    public var description: String {
        let type = endpoint.map { " (\(Swift.type(of: $0)))" } ?? ""
        return urlRequest.label + type
    }
}
