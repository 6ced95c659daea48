/// Reads structured values from fuzzer bytes; reading past the end yields zeros and empty strings.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next byte modulo `count`.
    mutating func choice(_ count: Int) -> Int { Int(byte()) % count }

    /// A length byte, then that many bytes (at most what is left).
    mutating func chunk() -> [UInt8] {
        let length = min(Int(byte()), bytes.count - min(offset, bytes.count))
        defer { offset += length }
        return Array(bytes[offset..<(offset + length)])
    }

    /// A length-prefixed chunk as text (invalid UTF-8 repaired).
    mutating func string() -> String { String(decoding: chunk(), as: UTF8.self) }

    /// Every byte that is left.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
