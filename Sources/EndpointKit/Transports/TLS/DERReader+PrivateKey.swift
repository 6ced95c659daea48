import Foundation

/// The public key a private key carries, so that ``ClientCertificate`` can tell a key that does
/// not belong to its certificate without any cryptography: compare it with the certificate's.
extension DERReader {
    private static let sequence: UInt8 = 0x30
    private static let integer: UInt8 = 0x02
    private static let octetString: UInt8 = 0x04
    private static let bitString: UInt8 = 0x03

    /// The public key of the DER private key these bytes hold, in the form
    /// ``publicKeyOfPublicKeyInfo()`` gives: from a SEC1 `ECPrivateKey` (its `[1] publicKey`), a
    /// PKCS #1 `RSAPrivateKey` (modulus and exponent), or either inside a PKCS #8 `PrivateKeyInfo`
    /// (or the latter's own `[1] publicKey`). `nil` when the key carries none (an Ed25519 key in
    /// PKCS #8 v1) or is none of these.
    func publicKeyOfPrivateKey() -> [UInt8]? {
        guard let root = element(at: 0, limit: bytes.count), root.tag == Self.sequence,
            let fields = children(of: root), fields.count >= 3, fields[0].tag == Self.integer
        else { return nil }
        // PKCS #1: version, modulus, publicExponent, privateExponent, prime1, ...
        if fields.count >= 9, fields[1..<9].allSatisfy({ $0.tag == Self.integer }) {
            return Array(bytes[fields[1].whole] + bytes[fields[2].whole])
        }
        // SEC1: version, privateKey, [0] parameters, [1] publicKey (a BIT STRING).
        if fields[1].tag == Self.octetString {
            guard let tagged = fields.first(where: { $0.tag == 0xA1 }), let inner = children(of: tagged),
                inner.count == 1, inner[0].tag == Self.bitString
            else { return nil }
            return bitStringBytes(inner[0].content)
        }
        // PKCS #8: version, privateKeyAlgorithm, privateKey, [0] attributes, [1] publicKey (v2).
        guard fields[1].tag == Self.sequence, fields[2].tag == Self.octetString else { return nil }
        if let publicKey = fields.first(where: { $0.tag == 0x81 }) { return bitStringBytes(publicKey.content) }
        return DERReader(Data(bytes[fields[2].content])).publicKeyOfPrivateKey()
    }

    /// The public key of the DER `subjectPublicKeyInfo` these bytes hold: an RSA key's modulus
    /// and exponent (their DER elements, one after the other), or the key bits of any other.
    func publicKeyOfPublicKeyInfo() -> [UInt8]? {
        guard let root = element(at: 0, limit: bytes.count), root.tag == Self.sequence,
            let fields = children(of: root), fields.count == 2, fields[1].tag == Self.bitString,
            let key = bitStringBytes(fields[1].content)
        else { return nil }
        let inner = DERReader(Data(key))
        if let rsa = inner.element(at: 0, limit: key.count), rsa.tag == Self.sequence, rsa.whole.count == key.count,
            let parts = inner.children(of: rsa), parts.count == 2, parts.allSatisfy({ $0.tag == Self.integer })
        {
            return Array(key[parts[0].whole] + key[parts[1].whole])
        }
        return key
    }

    /// The bits of a BIT STRING's content, whole bytes only (the first byte counts unused bits).
    private func bitStringBytes(_ content: Range<Int>) -> [UInt8]? {
        guard !content.isEmpty, bytes[content.lowerBound] == 0 else { return nil }
        return Array(bytes[(content.lowerBound + 1)..<content.upperBound])
    }
}
