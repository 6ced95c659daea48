import Foundation

/// An X.509 certificate for a ``ServerTrustPolicy``: a CA or self-signed certificate to trust, or a
/// certificate to pin.
///
/// Created from PEM (`-----BEGIN CERTIFICATE-----`) or DER (a `.cer`/`.der` file). The bytes are
/// checked when the value is created: anything that is not exactly one certificate throws
/// ``TransportConfigurationError/malformedCertificate(_:)``.
///
/// ```swift
/// let ca = try TLSCertificate(contentsOf: Bundle.main.url(forResource: "api", withExtension: "cer")!)
/// let policy = try ServerTrustPolicy.customRoots([ca])
/// ```
public struct TLSCertificate: Sendable, Hashable {
    /// The certificate in DER form.
    public let derData: Data
    /// The DER `subjectPublicKeyInfo`, what public-key pins hash.
    let publicKeyInfo: Data

    private static let begin = "-----BEGIN CERTIFICATE-----"
    private static let end = "-----END CERTIFICATE-----"

    /// Creates a certificate from DER bytes.
    /// - Throws: ``TransportConfigurationError/malformedCertificate(_:)`` if the bytes are not one
    ///   DER-encoded X.509 certificate.
    package init(derEncoded data: Data) throws(TransportConfigurationError) {
        guard let publicKeyInfo = DERReader(data).certificatePublicKeyInfo() else {
            throw .malformedCertificate("\(data.count) bytes that are not a DER-encoded X.509 certificate")
        }
        derData = data
        self.publicKeyInfo = publicKeyInfo
    }

    /// Creates a certificate from one PEM `CERTIFICATE` block.
    /// - Throws: ``TransportConfigurationError/malformedCertificate(_:)`` unless the text holds
    ///   exactly one well-formed certificate block.
    public init(pemEncoded text: String) throws(TransportConfigurationError) {
        let certificates = try Self.certificates(pemEncoded: text)
        guard certificates.count == 1, let certificate = certificates.first else {
            throw .malformedCertificate("expected one PEM certificate, found \(certificates.count)")
        }
        self = certificate
    }

    /// Creates a certificate from PEM or DER bytes, whichever they are (a `.cer` file may be either).
    /// - Throws: ``TransportConfigurationError/malformedCertificate(_:)``.
    public init(data: Data) throws(TransportConfigurationError) {
        if let text = String(data: data, encoding: .utf8), text.contains(Self.begin) {
            try self.init(pemEncoded: text)
        } else {
            try self.init(derEncoded: data)
        }
    }

    /// Reads a certificate file in PEM or DER form.
    /// - Throws: ``TransportConfigurationError/malformedCertificate(_:)`` if the file cannot be read
    ///   or does not hold one certificate.
    public init(contentsOf url: URL) throws(TransportConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .malformedCertificate("cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    /// Every `CERTIFICATE` block of a PEM bundle, in order.
    /// - Throws: ``TransportConfigurationError/malformedCertificate(_:)`` if a block is malformed
    ///   or there is none.
    public static func certificates(pemEncoded text: String) throws(TransportConfigurationError) -> [TLSCertificate] {
        var result: [TLSCertificate] = []
        var rest = Substring(text)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw .malformedCertificate("a PEM block has no \(end) line")
            }
            let base64 = rest[start.upperBound..<stop.lowerBound].filter { !$0.isWhitespace }
            guard let der = Data(base64Encoded: String(base64)) else {
                throw .malformedCertificate("a PEM block is not valid base64")
            }
            result.append(try TLSCertificate(derEncoded: der))
            rest = rest[stop.upperBound...]
        }
        guard !result.isEmpty else { throw .malformedCertificate("no \(begin) block found") }
        return result
    }

    /// The certificate as one PEM block.
    public var pemEncoded: String {
        let base64 = derData.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "\(Self.begin)\n\(base64)\n\(Self.end)\n"
    }
}
