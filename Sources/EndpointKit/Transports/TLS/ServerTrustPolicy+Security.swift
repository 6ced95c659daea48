#if canImport(Security)
import Foundation
import Security

extension ServerTrustPolicy {
    /// Evaluates a server-trust challenge's `SecTrust` for `host` as this policy says.
    ///
    /// Not exercised by this project's CI, which runs on Linux (see `Docs/Transports.md`).
    /// - Returns: Whether the connection may go on.
    func evaluate(_ trust: SecTrust, host: String) -> Bool {
        SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, validatesHostName ? host as CFString : nil))
        switch anchors {
        case .system:
            break
        case .custom(let certificates), .pinned(let certificates):
            let secCertificates = certificates.compactMap { SecCertificateCreateWithData(nil, $0.derData as CFData) }
            SecTrustSetAnchorCertificates(trust, secCertificates as CFArray)
            if case .custom = anchors { SecTrustSetAnchorCertificatesOnly(trust, true) }
        }
        guard SecTrustEvaluateWithError(trust, nil) else { return false }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []).map {
            SecCertificateCopyData($0) as Data
        }
        if case .pinned(let certificates) = anchors {
            let pinned = Set(certificates.map(\.derData))
            guard chain.contains(where: pinned.contains) else { return false }
        }
        if !publicKeyPins.isEmpty {
            guard let leaf = chain.first, let certificate = try? TLSCertificate(derEncoded: leaf),
                publicKeyPins.contains(PublicKeyPin(publicKeyOf: certificate))
            else { return false }
        }
        return true
    }
}
#endif
