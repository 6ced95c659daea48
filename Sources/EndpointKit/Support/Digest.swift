import Foundation

/// Stable digests for cache keys and file names: SHA-256 (``SHA256``) in lowercase hexadecimal.
enum Digest {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The hexadecimal SHA-256 of `data`.
    static func hex(_ data: Data) -> String { lowercaseHex(SHA256.hash(data)) }

    /// `digest`'s bytes in lowercase hexadecimal.
    static func lowercaseHex(_ digest: Data) -> String {
        // Byte by byte into one buffer: `String(format:)` per byte cost a cache hit 40% of its time.
        var characters = [UInt8]()
        characters.reserveCapacity(digest.count * 2)
        for byte in digest {
            characters.append(hexDigits[Int(byte >> 4)])
            characters.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// The hexadecimal SHA-256 of `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
