#if os(Linux) && canImport(CCurlShim)
/// A libcurl failure, kept as the ``TransportFailure/underlyingError`` of errors from
/// ``CurlTransport``: its `CURLcode` and libcurl's texts.
public struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CURLcode`, e.g. 60 (peer certificate could not be verified) or 90 (pinned key mismatch).
    public let code: Int
    /// libcurl's description of the code.
    public let summary: String
    /// libcurl's detailed message for this transfer (its error buffer), if it wrote one.
    public let detail: String

    /// `CURLcode N: summary (detail)`.
    public var description: String {
        detail.isEmpty ? "CURLcode \(code): \(summary)" : "CURLcode \(code): \(summary) (\(detail))"
    }
}
#endif
