import Foundation

/// A certificate and its private key, presented to servers that ask for one (mutual TLS, as
/// enterprise and banking backends require).
///
/// On ``CurlTransport`` (Linux): a PEM certificate (followed by any intermediates) and a PEM
/// private key, optionally encrypted with a password, given once per transport or per host
/// (``CurlTransport/Configuration/clientCertificate`` and
/// ``CurlTransport/Configuration/clientCertificatesByHost``):
///
/// ```swift
/// var configuration = CurlTransport.Configuration(serverTrustPolicy: .customRoots([bankCA]))
/// configuration.clientCertificate = try ClientCertificate(
///     certificateFile: URL(fileURLWithPath: "/etc/app/client.pem"),
///     keyFile: URL(fileURLWithPath: "/etc/app/client.key"), password: secrets.keyPassword)
/// let transport = try CurlTransport(configuration: configuration)
/// ```
///
/// Bad input fails early, never at the first request: a file that cannot be read, no certificate
/// or no key, an encrypted key without a password, or an unencrypted key that does not match the
/// certificate throw here; a wrong password throws when the ``CurlTransport`` is created (libcurl
/// decrypts the key once then). Every error is
/// ``TransportConfigurationError/unusableClientCertificate(_:_:)``, whose
/// ``ClientCertificateProblem`` says which.
///
/// On Apple platforms ``URLSessionTransport`` presents a `SecIdentity` instead
/// (`init(identity:intermediates:)`, from the keychain or `SecPKCS12Import`). The password never
/// appears in descriptions or dumps of the value.
public struct ClientCertificate: Sendable, CustomStringConvertible, CustomReflectable {
    /// What is presented.
    enum Identity: Sendable {
        /// PEM text, for libcurl: the certificates (leaf first) and the private-key block as given.
        case pem(certificates: String, key: String, password: String?)
        #if canImport(Security)
        /// A keychain identity, for URLSession's client-certificate challenge.
        case secIdentity(SecIdentityReference)
        #endif
    }

    let identity: Identity
    /// The certificates presented, leaf first; empty for a `SecIdentity`.
    public let certificates: [TLSCertificate]
    /// Whether the private key is encrypted (a PEM `ENCRYPTED PRIVATE KEY`, or a legacy
    /// `Proc-Type: 4,ENCRYPTED` block).
    package let isKeyEncrypted: Bool

    init(identity: Identity, certificates: [TLSCertificate], isKeyEncrypted: Bool) {
        self.identity = identity
        self.certificates = certificates
        self.isKeyEncrypted = isKeyEncrypted
    }

    /// Creates a client certificate from PEM text.
    /// - Parameters:
    ///   - certificatePEM: One or more `CERTIFICATE` blocks: the client's certificate first, then
    ///     any intermediates the server needs to build the chain.
    ///   - keyPEM: The private key of the first certificate: a `PRIVATE KEY`, `RSA PRIVATE KEY`,
    ///     `EC PRIVATE KEY` or `ENCRYPTED PRIVATE KEY` block (other text around it is ignored).
    ///   - password: The key's password, if it is encrypted; `nil` by default.
    /// - Throws: ``TransportConfigurationError/unusableClientCertificate(_:_:)`` when there is no
    ///   certificate or no key, the key is encrypted and `password` is `nil`, or an unencrypted key
    ///   does not match the certificate.
    public init(certificatePEM: String, keyPEM: String, password: String? = nil) throws(TransportConfigurationError) {
        try self.init(certificatePEM: certificatePEM, keyPEM: keyPEM, password: password, source: "the PEM text")
    }

    /// Reads a client certificate from PEM files.
    /// - Parameters:
    ///   - certificateFile: The client's certificate, then any intermediates.
    ///   - keyFile: The private key; `nil` (the default) when it is in `certificateFile` too.
    ///   - password: The key's password, if it is encrypted; `nil` by default.
    /// - Throws: ``TransportConfigurationError/unusableClientCertificate(_:_:)`` when a file cannot
    ///   be read or holds no certificate or key, the key is encrypted and `password` is `nil`, or an
    ///   unencrypted key does not match the certificate.
    public init(
        certificateFile: URL, keyFile: URL? = nil, password: String? = nil
    ) throws(TransportConfigurationError) {
        let certificatePEM = try Self.read(certificateFile)
        let keyPEM = try keyFile.map(Self.read) ?? certificatePEM
        try self.init(
            certificatePEM: certificatePEM, keyPEM: keyPEM, password: password, source: certificateFile.path)
    }

    private init(
        certificatePEM: String, keyPEM: String, password: String?, source: String
    ) throws(TransportConfigurationError) {
        let certificates: [TLSCertificate]
        do {
            certificates = try TLSCertificate.certificates(pemEncoded: certificatePEM)
        } catch {
            throw .unusableClientCertificate(.noCertificate, "\(source): \(error.description)")
        }
        let key = try Self.privateKeyBlock(in: keyPEM)
        if key.isEncrypted, password == nil {
            throw .unusableClientCertificate(.passwordRequired, "the private key is encrypted: give its password")
        }
        if !key.isEncrypted, let leaf = certificates.first, let der = Self.derBytes(ofBlock: key.text),
            let keyPublic = DERReader(der).publicKeyOfPrivateKey(),
            keyPublic != DERReader(leaf.publicKeyInfo).publicKeyOfPublicKeyInfo()
        {
            throw .unusableClientCertificate(
                .keyMismatch, "the private key does not match the certificate in \(source)")
        }
        if let password, password.utf8.contains(0) {
            throw .unusableClientCertificate(.wrongPassword, "the password holds a NUL character")
        }
        self.init(
            identity: .pem(
                certificates: certificates.map(\.pemEncoded).joined(), key: key.text,
                password: key.isEncrypted ? password : nil),
            certificates: certificates, isKeyEncrypted: key.isEncrypted)
    }

    /// `ClientCertificate(PEM, 2 certificates, encrypted key)`; never the password.
    public var description: String {
        switch identity {
        case .pem:
            let count = certificates.count == 1 ? "1 certificate" : "\(certificates.count) certificates"
            return "ClientCertificate(PEM, \(count), \(isKeyEncrypted ? "encrypted" : "unencrypted") key)"
        #if canImport(Security)
        case .secIdentity: return "ClientCertificate(SecIdentity)"
        #endif
        }
    }

    /// The ``description`` only, so that `dump` shows no key or password.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    private static func read(_ file: URL) throws(TransportConfigurationError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unusableClientCertificate(.unreadableFile, "cannot read \(file.path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unusableClientCertificate(.unreadableFile, "\(file.path) is not PEM text")
        }
        return text
    }

    /// The DER bytes of a PEM block: its base64 lines, without the BEGIN and END lines and any
    /// `Name: value` headers.
    private static func derBytes(ofBlock block: String) -> Data? {
        let lines = block.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") && !$0.contains(":") }
        return Data(base64Encoded: lines.joined())
    }

    /// A private-key block as given, and whether it is encrypted.
    private typealias PrivateKeyBlock = (text: String, isEncrypted: Bool)

    /// The first private-key block of `text`, as given, and whether it is encrypted.
    private static func privateKeyBlock(in text: String) throws(TransportConfigurationError) -> PrivateKeyBlock {
        var rest = Substring(text)
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let labelEnd = rest.range(of: "-----", range: begin.upperBound..<rest.endIndex) else { break }
            let label = rest[begin.upperBound..<labelEnd.lowerBound]
            rest = rest[labelEnd.upperBound...]
            guard label.hasSuffix("PRIVATE KEY") else { continue }
            guard let end = rest.range(of: "-----END \(label)-----") else {
                throw .unusableClientCertificate(.noPrivateKey, "the \(label) block has no END line")
            }
            let block = text[begin.lowerBound..<end.upperBound]
            return (String(block) + "\n", label == "ENCRYPTED PRIVATE KEY" || block.contains("Proc-Type: 4,ENCRYPTED"))
        }
        throw .unusableClientCertificate(.noPrivateKey, "no -----BEGIN ... PRIVATE KEY----- block found")
    }
}
