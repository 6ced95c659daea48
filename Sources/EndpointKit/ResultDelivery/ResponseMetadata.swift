import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What came back with a response, besides the decoded value: status, headers, raw body, timing.
public struct ResponseMetadata: Sendable {
    /// The request as it was sent (after building; without later redirects).
    public let request: URLRequest
    /// The HTTP response.
    public let response: HTTPURLResponse
    /// The response body, after ``APIRequest/transformBody(_:response:)`` (empty for `HEAD`, 204 and
    /// empty bodies).
    public let data: Data
    /// Time from the start of the send to the end of the body.
    public let elapsed: TimeInterval
    /// What the response envelope reported (business status, message, page information), when the
    /// response went through an envelope.
    public internal(set) var envelope: EnvelopeInfo?
    /// Where the response came from: the network, the cache, or the cache after a `304`.
    public internal(set) var source: ResponseSource = .network

    /// Creates metadata. Transports and test doubles use this.
    public init(
        request: URLRequest, response: HTTPURLResponse, data: Data, elapsed: TimeInterval, envelope: EnvelopeInfo? = nil
    ) {
        self.request = request
        self.response = response
        self.data = data
        self.elapsed = elapsed
        self.envelope = envelope
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }

    /// The response headers as a case-insensitive collection.
    public var headers: HTTPHeaders {
        HTTPHeaders(
            response.allHeaderFields.compactMap { key, value in
                guard let name = key as? String else { return nil }
                return HTTPHeaders.Field(name: name, value: "\(value)")
            }.sorted { $0.name < $1.name })
    }

    /// The value of one response header (case-insensitive).
    public func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
}
