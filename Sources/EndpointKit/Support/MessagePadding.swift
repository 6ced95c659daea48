import Foundation

/// The padding MD5 (RFC 1321, 3.1-3.2) and SHA-256 (FIPS 180-4, 5.1.1) put after a message: a 1
/// bit, zeros up to 56 bytes past a 64-byte boundary, then the message's length in bits in 8 bytes,
/// little-endian for MD5 and big-endian for SHA-256.
enum MessagePadding {
    /// `data` padded to a whole number of 64-byte blocks.
    static func padded(_ data: Data, lengthBigEndian: Bool) -> [UInt8] {
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        withUnsafeBytes(of: lengthBigEndian ? bitLength.bigEndian : bitLength.littleEndian) {
            message.append(contentsOf: $0)
        }
        return message
    }
}
