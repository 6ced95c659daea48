#if canImport(CCurlShim)
/// How far a ``CurlTransport`` transfer has come, as libcurl's transfer-info callback reports it
/// (for the current hop of a redirect chain).
struct CurlProgress: Sendable, Equatable {
    /// Request body bytes sent.
    var sent: Int64
    /// Request body bytes to send, 0 when unknown.
    var totalToSend: Int64
    /// Response body bytes received (decoded bytes are counted before decompression).
    var received: Int64
    /// Response body bytes expected, 0 when unknown (chunked).
    var totalToReceive: Int64
}
#endif
