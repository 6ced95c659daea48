#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// A ``ServerTrustPolicy`` translated into libcurl options, once per transport.
///
/// - Custom roots and pinned certificates become the only CA certificates (`CAINFO_BLOB`, no
///   `CAPATH`). libcurl (7.68+) lets OpenSSL accept a chain ending at any of them, not only at a
///   self-signed root, so "the verified chain contains a pinned certificate" holds exactly.
/// - Public-key pins become `PINNEDPUBLICKEY` (`sha256//...;sha256//...`), checked after the
///   chain is verified.
/// - Peer verification is always on; host verification unless explicitly disabled.
struct CurlTrustOptions: Sendable {
    private let verifyHost: Int
    private let rootsPEM: [UInt8]?
    private let pinnedPublicKeys: String?

    /// Translates and checks the policy against the loaded libcurl.
    /// - Throws: ``TransportConfigurationError/libraryUnavailable(_:)`` if libcurl cannot enforce it.
    init(_ policy: ServerTrustPolicy) throws(TransportConfigurationError) {
        verifyHost = policy.validatesHostName ? 2 : 0
        switch policy.anchors {
        case .system: rootsPEM = nil
        case .custom(let certificates), .pinned(let certificates):
            rootsPEM = Array(certificates.map(\.pemEncoded).joined().utf8)
        }
        pinnedPublicKeys =
            policy.publicKeyPins.isEmpty ? nil : policy.publicKeyPins.map(\.description).joined(separator: ";")
        if rootsPEM != nil && CurlLibrary.versionNumber < CurlLibrary.blobVersion {
            throw .libraryUnavailable(
                "custom roots and pinned certificates need libcurl 7.77, not \(CurlLibrary.version)")
        }
        guard let easy = ek_curl_easy_init() else { throw .libraryUnavailable("curl_easy_init failed") }
        defer { ek_curl_easy_cleanup(easy) }
        let code = apply(to: easy)
        guard code == 0 else {
            throw .libraryUnavailable(
                "libcurl \(CurlLibrary.version) with \(CurlLibrary.tlsLibrary) cannot enforce this trust policy: "
                    + CurlLibrary.describe(code))
        }
    }

    /// Sets the options on an easy handle.
    /// - Returns: The first failing `CURLcode`, or 0.
    func apply(to easy: UnsafeMutableRawPointer) -> Int32 {
        var code = ek_curl_easy_setopt_long(easy, CurlOption.sslVerifyPeer, 1)
        if code == 0 { code = ek_curl_easy_setopt_long(easy, CurlOption.sslVerifyHost, verifyHost) }
        if code == 0, let rootsPEM {
            code = rootsPEM.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return Int32(43) }  // CURLE_BAD_FUNCTION_ARGUMENT
                return ek_curl_easy_setopt_blob(easy, CurlOption.caInfoBlob, base, bytes.count)
            }
            if code == 0 { code = ek_curl_easy_setopt_pointer(easy, CurlOption.caPath, nil) }
        }
        if code == 0, let pinnedPublicKeys {
            code = ek_curl_easy_setopt_pointer(easy, CurlOption.pinnedPublicKey, pinnedPublicKeys)
        }
        return code
    }
}
#endif
