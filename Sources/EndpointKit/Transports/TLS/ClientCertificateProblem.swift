/// What is wrong with a client certificate, in
/// ``TransportConfigurationError/unusableClientCertificate(_:_:)``: switch on it to tell the user
/// what to fix; the error's text has the details (the file, libcurl's reason).
///
/// ```swift
/// do {
///     transport = try CurlTransport(configuration: configuration)
/// } catch .unusableClientCertificate(.wrongPassword, _) {
///     askForThePasswordAgain()
/// }
/// ```
public enum ClientCertificateProblem: Sendable, Hashable, CustomStringConvertible {
    /// A file cannot be read, or is not text.
    case unreadableFile
    /// No `CERTIFICATE` block, or a malformed one.
    case noCertificate
    /// No `PRIVATE KEY` block.
    case noPrivateKey
    /// The private key is encrypted and no password was given.
    case passwordRequired
    /// The password does not decrypt the private key. For an encrypted key this is also what a
    /// key that does not match the certificate gives: it cannot be compared before decryption,
    /// and libcurl does not say which it was.
    case wrongPassword
    /// The private key does not belong to the (first) certificate.
    case keyMismatch
    /// The HTTP library cannot use the key (an algorithm it does not support, a damaged block).
    case unusableKey
    /// The transport cannot present this kind of certificate on this platform (URLSession on
    /// Linux presents none; URLSession elsewhere presents a `SecIdentity`, not PEM text).
    case unsupportedByTransport

    /// A few words naming the problem, e.g. `wrong password`.
    public var description: String {
        switch self {
        case .unreadableFile: return "unreadable file"
        case .noCertificate: return "no certificate"
        case .noPrivateKey: return "no private key"
        case .passwordRequired: return "password required"
        case .wrongPassword: return "wrong password"
        case .keyMismatch: return "key does not match the certificate"
        case .unusableKey: return "unusable key"
        case .unsupportedByTransport: return "not supported by the transport"
        }
    }
}
