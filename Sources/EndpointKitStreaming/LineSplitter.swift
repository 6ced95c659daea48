@_spi(Internal) import EndpointKit
import Foundation

/// Cuts a byte stream into lines ending in LF, CR or CRLF, across chunk boundaries: a line may
/// span chunks, and a CR that ends one chunk and an LF that starts the next are one line end.
///
/// A pure value: what it holds is the unfinished last line and whether the last byte was a CR.
struct LineSplitter: Sendable {
    /// The most bytes a line may hold; a longer one fails, since it would have to be held whole.
    let limit: Int
    /// The start of a line that continues in the next chunk.
    private var partial: [UInt8] = []
    /// Whether the last chunk ended with CR, so that an LF starting the next one belongs to it.
    private var afterCR = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Calls `body` with each complete line of `bytes`, without its line end, in order; the
    /// unfinished rest waits for the next chunk.
    /// - Throws: ``/EndpointKit/TransportError``
    ///   (``/EndpointKit/TransportError/Reason/responseTooLarge(limit:)``) for a line over the
    ///   limit, or what `body` throws.
    mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return }
        let count = bytes.count
        var index = 0
        if afterCR {
            afterCR = false
            if base[0] == Self.lf { index = 1 }
        }
        var start = index
        while index < count {
            let byte = base[index]
            guard byte == Self.lf || byte == Self.cr else {
                index += 1
                continue
            }
            let piece = UnsafeRawBufferPointer(start: base + start, count: index - start)
            if partial.isEmpty {
                guard piece.count <= limit else { throw tooLong }
                try body(piece)
            } else {
                partial.append(contentsOf: piece)
                guard partial.count <= limit else { throw tooLong }
                try partial.withUnsafeBytes(body)
                partial.removeAll(keepingCapacity: partial.capacity <= 64 << 10)
            }
            if byte == Self.cr {
                if index + 1 < count {
                    if base[index + 1] == Self.lf { index += 1 }
                } else {
                    afterCR = true
                }
            }
            index += 1
            start = index
        }
        if start < count {
            partial.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: count - start))
            guard partial.count <= limit else { throw tooLong }
        }
    }

    /// Ends the input: the unfinished last line (input that did not end with a line end), if any.
    mutating func finish() -> [UInt8]? {
        afterCR = false
        guard !partial.isEmpty else { return nil }
        defer { partial = [] }
        return partial
    }

    /// Drops the unfinished line: the input was cut.
    mutating func reset() {
        afterCR = false
        partial = []
    }

    private var tooLong: TransportError {
        TransportError(
            .responseTooLarge(limit: limit), message: "A line of the stream is longer than \(limit) bytes.")
    }

    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
}
