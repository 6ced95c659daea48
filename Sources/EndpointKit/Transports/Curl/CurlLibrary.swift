#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// The system libcurl, loaded once per process by `CCurlShim` (dlopen of `libcurl.so.4`).
///
/// Loading at run time keeps the build free of curl headers and of a link-time dependency, so a
/// machine without libcurl still runs everything but ``CurlTransport``, which then fails to be
/// created with a ``TransportConfigurationError`` instead of the process failing to start.
enum CurlLibrary {
    /// 7.68: `curl_multi_poll` (7.66) and `curl_multi_wakeup` (7.68).
    static let minimumVersion: UInt32 = 0x07_44_00
    /// 7.77: `CURLOPT_CAINFO_BLOB`, for custom roots and pinned certificates.
    static let blobVersion: UInt32 = 0x07_4D_00

    private static let sslFeature = Int32(1 << 2)

    /// Loads libcurl if needed.
    /// - Throws: ``TransportConfigurationError/libraryUnavailable(_:)`` if it is missing, too old
    ///   or has no TLS.
    static func load() throws(TransportConfigurationError) {
        if let failure = ek_curl_load() {
            throw .libraryUnavailable(String(cString: failure))
        }
        guard ek_curl_version_number() >= minimumVersion else {
            throw .libraryUnavailable("libcurl \(version) is older than 7.68.0")
        }
        guard ek_curl_features() & sslFeature != 0 else {
            throw .libraryUnavailable("libcurl \(version) was built without TLS support")
        }
    }

    /// Whether an easy handle may serve a second transfer (the pool, the next hop of a redirect).
    ///
    /// Not from 7.83.0 (the header API) to 8.0.1: a transfer that starts on a used handle keeps a
    /// pointer to the previous transfer's freed headers, and a response whose first field line
    /// starts with a space or tab is then unfolded into that memory (curl issue 11101, fixed in
    /// 8.1.0): any server could stop the process. Debian 12 has 7.88.1. There every transfer and
    /// every hop gets a new handle; connections are reused all the same (they are the multi
    /// handle's).
    static let reusesHandlesSafely: Bool = {
        let number = ek_curl_version_number()
        return number < 0x07_53_00 || number >= 0x08_01_00
    }()

    /// libcurl's version, e.g. `7.88.1`, or `unknown` before it is loaded.
    static var version: String { ek_curl_version_text().map { String(cString: $0) } ?? "unknown" }

    /// The version number as `0xXXYYZZ`.
    static var versionNumber: UInt32 { ek_curl_version_number() }

    /// The TLS library libcurl uses, e.g. `OpenSSL/3.0.11`.
    static var tlsLibrary: String { ek_curl_ssl_version().map { String(cString: $0) } ?? "unknown" }

    /// What libcurl itself sends as `Accept-Encoding` when `CURLOPT_ACCEPT_ENCODING` is `""`: every
    /// content coding it can decode, in its own order (`deflate, gzip, br, zstd` with all of them),
    /// or `identity` with none. The transport sends this line itself, once: libcurl formats its
    /// own `Accept-Encoding` twice a request, a byte at a time (about 4 k instructions).
    static var acceptEncodings: String {
        let features = ek_curl_features()
        var codings: [String] = []
        if features & (1 << 3) != 0 { codings += ["deflate", "gzip"] }  // CURL_VERSION_LIBZ
        if features & (1 << 23) != 0 { codings.append("br") }  // CURL_VERSION_BROTLI
        if features & (1 << 26) != 0 { codings.append("zstd") }  // CURL_VERSION_ZSTD
        return codings.isEmpty ? "identity" : codings.joined(separator: ", ")
    }

    /// libcurl's text for a `CURLcode`.
    static func describe(_ code: Int32) -> String { String(cString: ek_curl_easy_strerror(code)) }
}
#endif
