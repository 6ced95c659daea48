import Foundation

/// A pinned public key: the SHA-256 hash of a certificate's DER `subjectPublicKeyInfo` (SPKI),
/// the form HPKP and libcurl use.
///
/// Compute one with:
/// ```sh
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///     | openssl dgst -sha256 -binary | base64
/// ```
/// Pinning a key rather than a certificate survives certificate renewals that keep the key.
///
/// Pins written in code or read at run time (a remote configuration) are parsed the same way;
/// bad text throws rather than pinning nothing:
///
/// ```swift
/// let pin = try PublicKeyPin("sha256//7HIpactkIAq2Y49orFOOQKurWxmmSFZhBCoQYcRhJ3Y=")
/// let fromConfig = try remoteConfig.pins.map { try PublicKeyPin($0) }
/// ```
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 hash of the DER `subjectPublicKeyInfo`.
    public let sha256: Data

    private static let prefix = "sha256//"

    /// Creates a pin from its base64 text, with or without the `sha256//` prefix.
    /// - Throws: ``TransportConfigurationError/malformedPublicKeyPin(_:)`` unless the text is the
    ///   base64 of exactly 32 bytes.
    public init(_ text: String) throws(TransportConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let base64 = trimmed.hasPrefix(Self.prefix) ? String(trimmed.dropFirst(Self.prefix.count)) : trimmed
        guard let hash = Data(base64Encoded: base64) else {
            throw .malformedPublicKeyPin("\(text.debugDescription) is not base64")
        }
        try self.init(sha256: hash)
    }

    /// Creates a pin from the raw hash.
    /// - Throws: ``TransportConfigurationError/malformedPublicKeyPin(_:)`` unless it has 32 bytes.
    init(sha256: Data) throws(TransportConfigurationError) {
        guard sha256.count == 32 else {
            throw .malformedPublicKeyPin("a SHA-256 hash has 32 bytes, not \(sha256.count)")
        }
        self.sha256 = sha256
    }

    /// The pin of a certificate's public key.
    public init(publicKeyOf certificate: TLSCertificate) {
        sha256 = SHA256.hash(certificate.publicKeyInfo)
    }

    /// `sha256//` followed by the base64 hash (libcurl's and HPKP's notation).
    public var description: String { Self.prefix + sha256.base64EncodedString() }
}
