#if canImport(Security)
import Foundation
import Security

/// A keychain identity and the intermediates sent with it. The Security framework's objects are
/// immutable once made, so the reference can cross threads.
final class SecIdentityReference: @unchecked Sendable {
    let identity: SecIdentity
    let intermediates: [SecCertificate]

    init(identity: SecIdentity, intermediates: [SecCertificate]) {
        self.identity = identity
        self.intermediates = intermediates
    }
}

extension ClientCertificate {
    /// Wraps a keychain identity (from the keychain, or from a PKCS #12 file with
    /// `SecPKCS12Import`), which ``URLSessionTransport`` presents in its client-certificate
    /// challenge on Apple platforms.
    ///
    /// Not exercised by this project's CI, on Linux or macOS: it needs a keychain identity (see
    /// `Docs/Transports.md`).
    /// - Parameters:
    ///   - identity: The certificate and its private key.
    ///   - intermediates: Certificates the server needs to build the chain; none by default.
    public init(identity: SecIdentity, intermediates: [SecCertificate] = []) {
        self.init(
            identity: .secIdentity(SecIdentityReference(identity: identity, intermediates: intermediates)),
            certificates: [], isKeyEncrypted: false)
    }

    /// The credential for URLSession's client-certificate challenge; `nil` for PEM text, which
    /// URLSession cannot present.
    var credential: URLCredential? {
        guard case .secIdentity(let reference) = identity else { return nil }
        return URLCredential(
            identity: reference.identity, certificates: reference.intermediates, persistence: .forSession)
    }
}
#endif
