/// Why a transport or a trust policy could not be created from the settings it was given.
///
/// Thrown when the policy, certificate or transport is created, never at the first request, so a
/// malformed pin or certificate shows up at start-up.
public enum TransportConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is neither a PEM `CERTIFICATE` block nor a DER-encoded X.509 certificate.
    case malformedCertificate(String)
    /// The pin is not a base64 SHA-256 hash of a public key (optionally prefixed `sha256//`).
    case malformedPublicKeyPin(String)
    /// The policy needs at least one certificate or pin and was given none.
    case emptyTrustPolicy(String)
    /// The transport cannot enforce this trust policy on this platform.
    case unsupportedTrustPolicy(String)
    /// The HTTP library the transport is built on could not be loaded, is too old, or refused a
    /// setting.
    case libraryUnavailable(String)
    /// A client certificate cannot be used: what is wrong (a file that cannot be read, no
    /// certificate or key in it, an encrypted key without its password or with a wrong one, a key
    /// that does not match the certificate, a transport that cannot present it), and the details.
    case unusableClientCertificate(ClientCertificateProblem, String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .malformedCertificate(let detail): return "Malformed certificate: \(detail)"
        case .malformedPublicKeyPin(let detail): return "Malformed public-key pin: \(detail)"
        case .emptyTrustPolicy(let detail): return "Empty trust policy: \(detail)"
        case .unsupportedTrustPolicy(let detail): return "Unsupported trust policy: \(detail)"
        case .libraryUnavailable(let detail): return "HTTP library unavailable: \(detail)"
        case .unusableClientCertificate(_, let detail): return "Unusable client certificate: \(detail)"
        }
    }
}
