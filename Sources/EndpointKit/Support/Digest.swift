import Foundation

/// Stable digests for cache keys and file names: SHA-256 (``SHA256``) in lowercase hexadecimal.
enum Digest {
    /// The hexadecimal SHA-256 of `data`.
    static func hex(_ data: Data) -> String {
        SHA256.hash(data).map { String(format: "%02x", $0) }.joined()
    }

    /// The hexadecimal SHA-256 of `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String { hex(Data(text.utf8)) }
}
