#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// A ``ClientCertificate`` as libcurl options, checked once when the transport is created.
///
/// The PEM text goes to libcurl from memory (`SSLCERT_BLOB`, `SSLKEY_BLOB`, libcurl 7.71+) with
/// the password (`KEYPASSWD`): nothing is read from disk per request, and a file changed or
/// removed after start-up changes nothing. The check runs libcurl's own TLS set-up once, against
/// a listener on 127.0.0.1 that drops the connection after the ClientHello
/// (`ek_curl_easy_run_tls_setup`), so a wrong password or a key that does not match the
/// certificate fails then, with libcurl's reason, and not at the first request.
struct CurlClientCertificate: Sendable {
    /// 7.71: `CURLOPT_SSLCERT_BLOB` and `CURLOPT_SSLKEY_BLOB`.
    static let blobVersion: UInt32 = 0x07_47_00

    private let certificatePEM: [UInt8]
    private let keyPEM: [UInt8]
    private let password: String?

    /// Translates and checks a client certificate against the loaded libcurl.
    /// - Throws: ``TransportConfigurationError/unusableClientCertificate(_:_:)`` when libcurl cannot
    ///   use it (wrong password, key not matching the certificate, a key it cannot read), or
    ///   ``TransportConfigurationError/libraryUnavailable(_:)`` when libcurl is too old.
    init(_ certificate: ClientCertificate) throws(TransportConfigurationError) {
        switch certificate.identity {
        case .pem(let certificates, let key, let password):
            certificatePEM = Array(certificates.utf8)
            keyPEM = Array(key.utf8)
            self.password = password
        }
        guard CurlLibrary.versionNumber >= Self.blobVersion else {
            throw .libraryUnavailable("client certificates need libcurl 7.71, not \(CurlLibrary.version)")
        }
        try check(isKeyEncrypted: certificate.isKeyEncrypted)
    }

    /// Sets the certificate, key and password on an easy handle.
    /// - Returns: The first failing `CURLcode`, or 0.
    func apply(to easy: UnsafeMutableRawPointer) -> Int32 {
        var code = ek_curl_easy_setopt_pointer(easy, CurlOption.sslCertType, "PEM")
        if code == 0 { code = Self.setBlob(certificatePEM, CurlOption.sslCertBlob, on: easy) }
        if code == 0 { code = ek_curl_easy_setopt_pointer(easy, CurlOption.sslKeyType, "PEM") }
        if code == 0 { code = Self.setBlob(keyPEM, CurlOption.sslKeyBlob, on: easy) }
        if code == 0, let password { code = ek_curl_easy_setopt_pointer(easy, CurlOption.keyPassword, password) }
        return code
    }

    private static func setBlob(_ bytes: [UInt8], _ option: Int32, on easy: UnsafeMutableRawPointer) -> Int32 {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return Int32(43) }  // CURLE_BAD_FUNCTION_ARGUMENT
            return ek_curl_easy_setopt_blob(easy, option, base, buffer.count)
        }
    }

    /// Lets libcurl load the pair once, as it will for every connection.
    private func check(isKeyEncrypted: Bool) throws(TransportConfigurationError) {
        guard let easy = ek_curl_easy_init() else { throw .libraryUnavailable("curl_easy_init failed") }
        defer { ek_curl_easy_cleanup(easy) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(repeating: 0, count: 256)
        var code = ek_curl_easy_setopt_pointer(easy, CurlOption.errorBuffer, UnsafeRawPointer(errorBuffer))
        if code == 0 { code = apply(to: easy) }
        guard code == 0 else {
            throw .libraryUnavailable(
                "libcurl \(CurlLibrary.version) with \(CurlLibrary.tlsLibrary) cannot use client certificates: "
                    + CurlLibrary.describe(code))
        }
        code = ek_curl_easy_run_tls_setup(easy)
        // 58 (CURLE_SSL_CERTPROBLEM): libcurl could not use the pair. Anything else is the
        // handshake failing on the dropped connection, after the pair was loaded (or, -1, no
        // loopback listener: the first connection will tell).
        guard code == 58 else { return }
        // libcurl (OpenSSL 3) gives one message for a key it cannot decrypt and one that does not
        // match; an unencrypted key was already compared with the certificate (ClientCertificate).
        let detail = String(cString: errorBuffer)
        if detail.lowercased().contains("does not match") {
            throw .unusableClientCertificate(.keyMismatch, "the private key does not match the certificate (\(detail))")
        }
        if isKeyEncrypted {
            throw .unusableClientCertificate(
                .wrongPassword,
                "the password does not decrypt the private key, or the key does not match the certificate (\(detail))")
        }
        throw .unusableClientCertificate(.unusableKey, "libcurl cannot use the certificate or its key (\(detail))")
    }
}
#endif
