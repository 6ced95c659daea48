import EndpointKit
import Foundation

/// The framing of every file an ``Outbox`` writes: a magic line, the length of a JSON header, the
/// header, a payload (a request or response body), and the SHA-256 of all that. A file that was
/// cut short, padded or altered fails the check and is quarantined, never half-read.
enum RecordFile {
    private static let magic = Data("EKOUTBOX1\n".utf8)
    private static let digestSize = 32
    /// A header larger than this is damage, not a header (the header holds no body).
    private static let maximumHeaderSize = 16 << 20

    /// The file's bytes, in parts to write one after the other.
    static func encode<Header: Encodable>(_ header: Header, payload: Data) throws(OutboxError) -> [Data] {
        let json: Data
        do {
            json = try JSONEncoder().encode(header)
        } catch {
            throw .fileSystemError(path: "(record)", reason: "its header could not be encoded: \(error)")
        }
        var prefix = magic
        let length = UInt32(json.count).bigEndian
        withUnsafeBytes(of: length) { prefix.append(contentsOf: $0) }
        prefix.append(json)
        var digested = prefix
        digested.append(payload)
        return [prefix, payload, SHA256.hash(digested)]
    }

    /// The header and payload of a file's bytes.
    /// - Throws: ``RecordDamage`` when the bytes are not a whole, unaltered record.
    static func decode<Header: Decodable>(_ type: Header.Type, from data: Data) throws(RecordDamage) -> (Header, Data) {
        let bytes = [UInt8](data)
        let headerStart = magic.count + 4
        guard bytes.count >= headerStart + digestSize else { throw RecordDamage("it is too short") }
        guard bytes[0..<magic.count].elementsEqual(magic) else { throw RecordDamage("it is not an outbox record") }
        let length = bytes[magic.count..<headerStart].reduce(0) { $0 << 8 | Int($1) }
        let digestStart = bytes.count - digestSize
        guard length <= maximumHeaderSize, headerStart + length <= digestStart else {
            throw RecordDamage("its header length does not fit the file")
        }
        guard SHA256.hash(Data(bytes[0..<digestStart])) == Data(bytes[digestStart...]) else {
            throw RecordDamage("its checksum does not match (cut short or altered)")
        }
        do {
            let header = try JSONDecoder().decode(Header.self, from: Data(bytes[headerStart..<headerStart + length]))
            return (header, Data(bytes[(headerStart + length)..<digestStart]))
        } catch {
            throw RecordDamage("its header does not decode: \(error)")
        }
    }
}

/// Why a file is not a record the outbox can read.
struct RecordDamage: Error, Sendable {
    /// What is wrong, as the end of "The file ... because ...".
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
