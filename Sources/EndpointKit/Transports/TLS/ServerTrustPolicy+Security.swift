#if canImport(Security)
import Foundation
import Security

extension ServerTrustPolicy {
    /// The policy's certificates as the Security framework reads them, in order; `nil` if it
    /// cannot read one (`SecCertificateCreateWithData`). Empty for the system's trust store.
    var securityCertificates: [SecCertificate]? {
        switch anchors {
        case .system:
            return []
        case .custom(let certificates), .pinned(let certificates):
            var result: [SecCertificate] = []
            for certificate in certificates {
                guard let read = SecCertificateCreateWithData(nil, certificate.derData as CFData) else { return nil }
                result.append(read)
            }
            return result
        }
    }

    /// Why a server-trust challenge's `SecTrust` does not satisfy this policy for `host`, or `nil`
    /// when it does.
    ///
    /// The same decisions as ``CurlTransport`` (`CurlTrustOptions`) makes with libcurl:
    /// - the SSL server policy, naming `host` unless host-name verification is off
    ///   (`SSL_VERIFYHOST`);
    /// - custom roots and pinned certificates are the only anchors, the system's are off
    ///   (`CAINFO_BLOB` without `CAPATH`); any of them anchors a chain, a leaf or an intermediate
    ///   too, as libcurl lets OpenSSL end a chain at any trusted certificate;
    /// - pinned certificates: the evaluated chain contains one; public-key pins: the leaf's key
    ///   matches one (`PINNEDPUBLICKEY`), on top of a trusted chain.
    ///
    /// Every Security call is checked: one that fails rejects the server. Runs on the session's
    /// delegate queue, never the main thread (`SecTrustEvaluateWithError` may block).
    /// Not exercised by this project's Linux CI; the macOS job of `.github/workflows/apple.yml`
    /// runs it (`URLSessionTrustPolicyTests`).
    func rejection(of trust: SecTrust, host: String) -> String? {
        var status = SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, validatesHostName ? host as CFString : nil))
        guard status == errSecSuccess else { return Self.failure("SecTrustSetPolicies", status) }
        guard let anchorCertificates = securityCertificates else {
            return "the Security framework cannot read a certificate of the trust policy"
        }
        if anchors != .system {
            status = SecTrustSetAnchorCertificates(trust, anchorCertificates as CFArray)
            guard status == errSecSuccess else { return Self.failure("SecTrustSetAnchorCertificates", status) }
            // SecTrustSetAnchorCertificates turns the system's anchors off already; said explicitly,
            // so that nothing can turn them back on.
            status = SecTrustSetAnchorCertificatesOnly(trust, true)
            guard status == errSecSuccess else { return Self.failure("SecTrustSetAnchorCertificatesOnly", status) }
        }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            return error.map { ($0 as Error).localizedDescription } ?? "the certificate is not trusted"
        }
        guard let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate], let leaf = chain.first else {
            return "the evaluated trust has no certificate chain"
        }
        if case .pinned(let certificates) = anchors {
            let pinned = Set(certificates.map(\.derData))
            guard chain.contains(where: { pinned.contains(SecCertificateCopyData($0) as Data) }) else {
                return "no pinned certificate in the chain"
            }
        }
        if !publicKeyPins.isEmpty {
            guard let certificate = try? TLSCertificate(derEncoded: SecCertificateCopyData(leaf) as Data) else {
                return "the server's certificate cannot be read"
            }
            guard publicKeyPins.contains(PublicKeyPin(publicKeyOf: certificate)) else {
                return "the server's public key matches no pinned key"
            }
        }
        return nil
    }

    /// `SecTrustSetPolicies failed: <Security's text> (OSStatus -50)`.
    private static func failure(_ call: String, _ status: OSStatus) -> String {
        let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "no description"
        return "\(call) failed: \(text) (OSStatus \(status))"
    }
}
#endif
