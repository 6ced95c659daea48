#if os(Linux) && canImport(CCurlShim)
/// A libcurl failure, kept as the ``TransportError/underlyingError`` of errors from
/// ``CurlTransport``: its `CURLcode` and libcurl's texts.
package struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CURLcode`, e.g. 60 (peer certificate could not be verified) or 90 (pinned key mismatch).
    package let code: Int
    /// libcurl's description of the code.
    package let summary: String
    /// libcurl's detailed message for this transfer (its error buffer), if it wrote one.
    package let detail: String

    /// `CURLcode N: summary (detail)`.
    package var description: String {
        detail.isEmpty ? "CURLcode \(code): \(summary)" : "CURLcode \(code): \(summary) (\(detail))"
    }
}
#endif
