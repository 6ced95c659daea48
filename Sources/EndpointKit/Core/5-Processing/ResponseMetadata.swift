import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What came back with a response, besides the decoded value: status, headers, raw body, timing.
public struct ResponseMetadata: Sendable {
    /// What never changes after the response arrived, behind one reference: the metadata is
    /// handed along the path (processing, the result, the delivery) several times a request.
    private final class Exchange: Sendable {
        let request: URLRequest
        let head: ResponseHead
        let data: Data
        let elapsed: TimeInterval

        init(request: URLRequest, head: ResponseHead, data: Data, elapsed: TimeInterval) {
            self.request = request
            self.head = head
            self.data = data
            self.elapsed = elapsed
        }
    }

    /// The envelope's report, behind a reference: most responses have none, and an
    /// `EnvelopeInfo` inline would make every copy of the metadata (and of a result holding it)
    /// copy a dozen fields.
    private final class EnvelopeBox: Sendable {
        let info: EnvelopeInfo

        init(_ info: EnvelopeInfo) { self.info = info }
    }

    private let exchange: Exchange
    private var envelopeBox: EnvelopeBox?

    /// The request as it was sent (after building; without later redirects).
    public var request: URLRequest { exchange.request }
    /// The HTTP response. On ``CurlTransport`` it is made the first time it is read; ``statusCode``
    /// and ``header(_:)`` do not need it.
    public var response: HTTPURLResponse { head.response }
    /// The response body, after ``APIRequest/transformBody(_:metadata:)`` (empty for `HEAD`, 204 and
    /// empty bodies).
    public var data: Data { exchange.data }
    /// Time from the start of the send to the end of the body.
    public var elapsed: TimeInterval { exchange.elapsed }
    /// What the response envelope reported (business status, message, page information), when the
    /// response went through an envelope.
    public internal(set) var envelope: EnvelopeInfo? {
        get { envelopeBox?.info }
        set { envelopeBox = newValue.map(EnvelopeBox.init) }
    }
    /// Where the response came from: the network, the cache, or the cache after a `304`.
    public internal(set) var source: ResponseSource = .network
    /// What the exchange took on the network (phases, body bytes, connection reuse, HTTP
    /// version, server address), when the transport measured it; `nil` for a response from the
    /// cache or a transport that reports none. A revalidated response has the metrics of the `304`.
    public var metrics: TransferMetrics? { head.metrics }
    /// Status and header fields, read without making the `HTTPURLResponse`.
    var head: ResponseHead { exchange.head }

    /// Creates metadata from a finished `HTTPURLResponse`: for `DecodingContext`'s public
    /// initializer, with which tests call a `decode(_:)` (a transport's response comes with a head).
    init(
        request: URLRequest, response: HTTPURLResponse, data: Data, elapsed: TimeInterval, envelope: EnvelopeInfo? = nil
    ) {
        self.init(request: request, head: ResponseHead(response), data: data, elapsed: elapsed, envelope: envelope)
    }

    package init(
        request: URLRequest, head: ResponseHead, data: Data, elapsed: TimeInterval, envelope: EnvelopeInfo? = nil
    ) {
        exchange = Exchange(request: request, head: head, data: data, elapsed: elapsed)
        envelopeBox = envelope.map(EnvelopeBox.init)
    }

    /// The same metadata with another body.
    func replacingData(_ data: Data) -> ResponseMetadata {
        var copy = ResponseMetadata(request: request, head: head, data: data, elapsed: elapsed, envelope: envelope)
        copy.source = source
        return copy
    }

    /// The HTTP status code.
    public var statusCode: Int { head.statusCode }

    /// The response headers as a case-insensitive collection, sorted by name.
    package var headers: HTTPHeaders {
        HTTPHeaders(
            head.headerFields.map { HTTPHeaders.Field(name: $0.name, value: $0.value) }.sorted { $0.name < $1.name })
    }

    /// The value of one response header (case-insensitive).
    public func header(_ name: String) -> String? { head.value(forHTTPHeaderField: name) }
}
