import Foundation

/// What the exchange that produced a response took on the network: its phases, its body bytes
/// and the connection it used, as the transport measured them.
///
/// Read it from ``ResponseMetadata/metrics`` (a plugin sees each attempt's in
/// ``TransportResponse/metrics``). Times are seconds from the start of the exchange, so along one
/// exchange they only grow: `domainLookupEnd <= connectEnd <= secureConnectionEnd <=
/// responseStart <= responseEnd`. After redirects the metrics are those of the last exchange, and
/// ``redirectCount`` says how many came before it.
///
/// A field is `nil` when the exchange had no such phase (a reused connection has no lookup,
/// connect or handshake; plain `http` has no handshake) or when the transport cannot know it:
/// ``CurlTransport`` and URLSession on Apple platforms report every field; URLSession on Linux
/// reports none of its own, so ``URLSessionTransport`` fills in only ``responseStart``,
/// ``responseEnd`` and ``redirectCount`` there, from its delegate callbacks.
///
/// ```swift
/// let result = await client.send(GetUser(id: 7))
/// if let metrics = result.metadata?.metrics {
///     print(metrics)  // HTTP/1.1 127.0.0.1:8080, reused connection: first byte 0.8 ms, total 0.9 ms, ...
///     statistics.record(firstByte: metrics.responseStart, reused: metrics.isReusedConnection)
/// }
/// ```
public struct TransferMetrics: Sendable, Hashable, CustomStringConvertible {
    /// When the host name was resolved, in seconds from the start of the exchange.
    public var domainLookupEnd: TimeInterval? { Self.seconds(lookupMicroseconds) }
    /// When the TCP connection was established.
    public var connectEnd: TimeInterval? { Self.seconds(connectMicroseconds) }
    /// When the TLS handshake ended (`https` only).
    public var secureConnectionEnd: TimeInterval? { Self.seconds(handshakeMicroseconds) }
    /// When the first byte of the response arrived: the time to first byte.
    public var responseStart: TimeInterval? { Self.seconds(firstByteMicroseconds) }
    /// When the last byte of the response arrived: the exchange's total time.
    public var responseEnd: TimeInterval? { Self.seconds(totalMicroseconds) }
    /// Bytes of the request body sent (0 without a body).
    public var requestBodyBytesSent: Int64? { requestBodyBytes < 0 ? nil : requestBodyBytes }
    /// Bytes of the response body received, as they came over the connection: a compressed body
    /// counts compressed (0 for `HEAD`, `204`, `304`).
    public var responseBodyBytesReceived: Int64? { responseBodyBytes < 0 ? nil : responseBodyBytes }
    /// Whether the exchange went over a connection opened for an earlier one (keep-alive, HTTP/2).
    public var isReusedConnection: Bool? { reused < 0 ? nil : reused == 1 }
    /// The HTTP version of the response: `HTTP/1.0`, `HTTP/1.1`, `HTTP/2` or `HTTP/3`.
    public var httpVersion: String? { Self.versions.first { $0.code == version }?.name }
    /// The server's IP address, as text (`127.0.0.1`, `::1`).
    public var remoteAddress: String? { address.text }
    /// The server's port.
    public var remotePort: Int? { port < 0 ? nil : Int(port) }
    /// Redirects followed before this exchange.
    public var redirectCount: Int { Int(redirects) }

    // Plain values only (times in microseconds, -1 for unknown; the address's characters inline):
    // a response and its metadata are copied several times on their way to the caller, and these
    // copy as bytes, with no allocation and no reference counting.
    private var lookupMicroseconds: Int64
    private var connectMicroseconds: Int64
    private var handshakeMicroseconds: Int64
    private var firstByteMicroseconds: Int64
    private var totalMicroseconds: Int64
    private var requestBodyBytes: Int64
    private var responseBodyBytes: Int64
    private var port: Int32
    private var redirects: Int32
    private var reused: Int8
    private var version: Int8
    private var address: InlineText

    /// Creates metrics; transports and test doubles use this. Every field is `nil` (0 redirects)
    /// by default. Times are kept to the microsecond; `httpVersion` is one of the four names
    /// above (anything else reads back as `nil`); `remoteAddress` keeps its first 63 bytes.
    package init(
        domainLookupEnd: TimeInterval? = nil, connectEnd: TimeInterval? = nil,
        secureConnectionEnd: TimeInterval? = nil, responseStart: TimeInterval? = nil,
        responseEnd: TimeInterval? = nil, requestBodyBytesSent: Int64? = nil, responseBodyBytesReceived: Int64? = nil,
        isReusedConnection: Bool? = nil, httpVersion: String? = nil, remoteAddress: String? = nil,
        remotePort: Int? = nil, redirectCount: Int = 0
    ) {
        lookupMicroseconds = Self.microseconds(domainLookupEnd)
        connectMicroseconds = Self.microseconds(connectEnd)
        handshakeMicroseconds = Self.microseconds(secureConnectionEnd)
        firstByteMicroseconds = Self.microseconds(responseStart)
        totalMicroseconds = Self.microseconds(responseEnd)
        requestBodyBytes = max(-1, requestBodyBytesSent ?? -1)
        responseBodyBytes = max(-1, responseBodyBytesReceived ?? -1)
        port = remotePort.map { Int32(clamping: max(-1, $0)) } ?? -1
        redirects = Int32(clamping: max(0, redirectCount))
        reused = isReusedConnection.map { $0 ? 1 : 0 } ?? -1
        version = httpVersion.flatMap { name in Self.versions.first { $0.name == name }?.code } ?? 0
        address = InlineText(remoteAddress)
    }

    /// Metrics from raw values, as a transport reads them: times in microseconds and counts, -1
    /// for unknown; the HTTP version as 10, 11, 20 or 30 (0 for unknown); the address as a C
    /// string, copied.
    init(
        microseconds lookup: Int64, connect: Int64, handshake: Int64, firstByte: Int64, total: Int64,
        requestBodyBytes: Int64, responseBodyBytes: Int64, isReusedConnection: Bool?, httpVersion: Int8,
        remoteAddress: UnsafePointer<CChar>?, remotePort: Int, redirectCount: Int
    ) {
        lookupMicroseconds = max(-1, lookup)
        connectMicroseconds = max(-1, connect)
        handshakeMicroseconds = max(-1, handshake)
        firstByteMicroseconds = max(-1, firstByte)
        totalMicroseconds = max(-1, total)
        self.requestBodyBytes = max(-1, requestBodyBytes)
        self.responseBodyBytes = max(-1, responseBodyBytes)
        port = Int32(clamping: max(-1, remotePort))
        redirects = Int32(clamping: max(0, redirectCount))
        reused = isReusedConnection.map { $0 ? 1 : 0 } ?? -1
        version = httpVersion
        address = InlineText(remoteAddress)
    }

    /// The same metrics with another redirect count.
    func withRedirectCount(_ count: Int) -> TransferMetrics {
        var copy = self
        copy.redirects = Int32(clamping: max(0, count))
        return copy
    }

    private static let versions: [(code: Int8, name: String)] = [
        (10, "HTTP/1.0"), (11, "HTTP/1.1"), (20, "HTTP/2"), (30, "HTTP/3"),
    ]

    private static func seconds(_ microseconds: Int64) -> TimeInterval? {
        microseconds < 0 ? nil : Double(microseconds) / 1_000_000
    }

    private static func microseconds(_ seconds: TimeInterval?) -> Int64 {
        guard let seconds, seconds >= 0 else { return -1 }
        return Int64((min(seconds, 1e9) * 1_000_000).rounded())
    }

    /// One line for logs: version, address and connection, then the phases and bytes that are
    /// known, e.g. `HTTP/1.1 127.0.0.1:8080, new connection: lookup 0.1 ms, connect 0.2 ms,
    /// first byte 1.3 ms, total 1.4 ms, body received 512 B`.
    public var description: String {
        var peer = [httpVersion, remoteAddress.map { address in remotePort.map { "\(address):\($0)" } ?? address }]
            .compactMap { $0 }.joined(separator: " ")
        if let isReusedConnection {
            peer += (peer.isEmpty ? "" : ", ") + (isReusedConnection ? "reused connection" : "new connection")
        }
        let times: [(String, TimeInterval?)] = [
            ("lookup", domainLookupEnd), ("connect", connectEnd), ("TLS", secureConnectionEnd),
            ("first byte", responseStart), ("total", responseEnd),
        ]
        var parts = times.compactMap { name, time in time.map { "\(name) \(Self.milliseconds($0))" } }
        if let sent = requestBodyBytesSent, sent > 0 { parts.append("body sent \(sent) B") }
        if let received = responseBodyBytesReceived { parts.append("body received \(received) B") }
        if redirectCount > 0 { parts.append("after \(redirectCount) redirect\(redirectCount == 1 ? "" : "s")") }
        let details = parts.joined(separator: ", ")
        return peer.isEmpty ? details : details.isEmpty ? peer : "\(peer): \(details)"
    }

    /// `seconds` in milliseconds with one decimal, e.g. `1.3 ms`.
    private static func milliseconds(_ seconds: TimeInterval) -> String {
        let tenths = max(0, Int((seconds * 10_000).rounded()))
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    /// Up to 63 bytes of text, stored inline.
    private struct InlineText: Hashable {
        private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        /// The length, or -1 for no text.
        private var count: Int8 = -1

        init(_ text: String?) {
            guard let text else { return }
            let bytes = text.utf8.prefix(63)
            count = Int8(bytes.count)
            withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
        }

        init(_ text: UnsafePointer<CChar>?) {
            guard let text else { return }
            let length = min(strnlen(text, 63), 63)
            count = Int8(length)
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: text, count: length))
            }
        }

        var text: String? {
            guard count >= 0 else { return nil }
            return withUnsafeBytes(of: words) { String(decoding: $0.prefix(Int(count)), as: UTF8.self) }
        }

        static func == (lhs: InlineText, rhs: InlineText) -> Bool { lhs.text == rhs.text }
        func hash(into hasher: inout Hasher) { hasher.combine(text) }
    }
}
