import Foundation

/// Reads the few DER (X.690) structures needed to check that bytes are an X.509 certificate and
/// to find its `subjectPublicKeyInfo`; nothing more of ASN.1.
struct DERReader {
    /// One tag-length-value element: its tag, its content, and the whole element.
    struct Element {
        let tag: UInt8
        let content: Range<Int>
        let whole: Range<Int>
    }

    let bytes: [UInt8]

    init(_ data: Data) { bytes = [UInt8](data) }

    /// The element starting at `offset`, if it is well formed and ends within `limit`.
    func element(at offset: Int, limit: Int) -> Element? {
        guard offset + 2 <= limit else { return nil }
        let tag = bytes[offset]
        let first = bytes[offset + 1]
        var cursor = offset + 2
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            // Indefinite lengths are not DER; four length bytes are more than any certificate needs.
            guard count >= 1, count <= 4, cursor + count <= limit else { return nil }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        guard length <= limit - cursor else { return nil }
        return Element(tag: tag, content: cursor..<(cursor + length), whole: offset..<(cursor + length))
    }

    /// The elements directly inside `parent`, or `nil` if they do not exactly fill it.
    func children(of parent: Element) -> [Element]? {
        var result: [Element] = []
        var offset = parent.content.lowerBound
        while offset < parent.content.upperBound {
            guard let child = element(at: offset, limit: parent.content.upperBound) else { return nil }
            result.append(child)
            offset = child.whole.upperBound
        }
        return result
    }

    /// The DER `subjectPublicKeyInfo` of the certificate these bytes hold, or `nil` if the bytes are
    /// not exactly one certificate (`SEQUENCE { tbsCertificate, signatureAlgorithm, signature }`).
    func certificatePublicKeyInfo() -> Data? {
        let sequence: UInt8 = 0x30
        guard let certificate = element(at: 0, limit: bytes.count), certificate.tag == sequence,
            certificate.whole.upperBound == bytes.count, let parts = children(of: certificate), parts.count == 3,
            parts[0].tag == sequence, parts[1].tag == sequence, parts[2].tag == 0x03,
            var fields = children(of: parts[0])
        else { return nil }
        if fields.first?.tag == 0xA0 { fields.removeFirst() }  // [0] EXPLICIT version
        // serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo.
        guard fields.count >= 6, fields[0].tag == 0x02, fields[1...5].allSatisfy({ $0.tag == sequence }) else {
            return nil
        }
        return Data(bytes[fields[5].whole])
    }
}
