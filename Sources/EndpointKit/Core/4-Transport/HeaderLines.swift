#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The field lines of a response head as they arrived, parsed only when read.
///
/// Most responses are read for their status, a `Content-Length` and perhaps one or two fields;
/// making a `String` pair for each of a dozen lines costs more than the lookups. The bytes are
/// kept with where each name and value starts and ends, and a lookup compares only the names of
/// the right length.
struct HeaderLines: Sendable {
    /// Where one field's name and value are in ``bytes`` (the bytes between them are the colon and
    /// the spaces around it).
    private struct Entry: Sendable {
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var nameStart: Int32
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// The entry of the `Content-Length` field, noted as it arrives: -1 none, -2 more than one.
    private var contentLengthEntry = -1
    /// Whether a `Set-Cookie` field arrived (the transport stores cookies only then).
    private(set) var hasSetCookie = false

    /// Whether there is no field.
    var isEmpty: Bool { entries.isEmpty }

    /// Adds one field line (without its CRLF). A line starting with a space or a tab continues the
    /// previous field (obsolete folding, RFC 9112 §5.2); before any field it is dropped (§2.2). A
    /// line without a colon after a non-empty name is dropped.
    mutating func append(_ line: UnsafeRawBufferPointer) {
        // Offsets are 32-bit: a line that would take the head past 2 GiB is dropped.
        guard let base = line.baseAddress, !line.isEmpty, bytes.count + line.count < Int(Int32.max) else { return }
        let line = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: line.count)
        if entries.isEmpty {
            bytes.reserveCapacity(512)
            entries.reserveCapacity(16)
        }
        if line[0] == 0x20 || line[0] == 0x09 {
            guard var last = entries.popLast() else { return }
            // One space between the two values' trimmed ends.
            bytes.removeLast(bytes.count - Int(last.valueEnd))
            let continuation = Self.trimmed(line, 0, line.count)
            if continuation.lowerBound < continuation.upperBound {
                if last.valueEnd > last.valueStart { bytes.append(0x20) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[continuation]))
            }
            last.valueEnd = Int32(truncatingIfNeeded: bytes.count)
            entries.append(last)
            return
        }
        guard let found = memchr(base, Int32(UInt8(ascii: ":")), line.count) else { return }
        let colon = base.distance(to: UnsafeRawPointer(found))
        guard colon > 0 else { return }
        let name = Self.trimmed(line, 0, colon)
        let value = Self.trimmed(line, colon + 1, line.count)
        guard name.lowerBound < name.upperBound else { return }
        noteKnownField(UnsafeBufferPointer(rebasing: line[name]))
        // One copy from the name's start to the value's end (the colon and spaces between stay).
        let start = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[name.lowerBound..<value.upperBound]))
        // The guard above keeps every offset within 32 bits.
        let shift = start - name.lowerBound
        entries.append(
            Entry(
                nameEnd: Int32(truncatingIfNeeded: name.upperBound + shift),
                valueStart: Int32(truncatingIfNeeded: value.lowerBound + shift),
                valueEnd: Int32(truncatingIfNeeded: value.upperBound + shift),
                nameStart: Int32(truncatingIfNeeded: start)))
    }

    /// Removes every field (a new status line starts a new head).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        contentLengthEntry = -1
        hasSetCookie = false
    }

    /// Notes a new field named `name` if it is one the transport reads on every response, so
    /// that reading it needs no search.
    private mutating func noteKnownField(_ name: UnsafeBufferPointer<UInt8>) {
        let contentLength: StaticString = "content-length"
        let setCookie: StaticString = "set-cookie"
        if Self.sameName(name, contentLength) {
            contentLengthEntry = contentLengthEntry == -1 ? entries.count : -2
        } else if Self.sameName(name, setCookie) {
            hasSetCookie = true
        }
    }

    /// The value of the field `name` (case-insensitive); repeated fields joined with ", ".
    func value(for name: String) -> String? {
        var name = name
        return name.withUTF8 { name in
            var result: String?
            for entry in entries where matches(entry, name) {
                let value = text(entry.valueStart, entry.valueEnd)
                result = result.map { $0 + ", " + value } ?? value
            }
            return result
        }
    }

    /// The `Content-Length` field read as a decimal integer, as `Int64(value(for:))` reads it,
    /// without making the `String`: `nil` when the field is missing, repeated, or not a number
    /// that fits.
    var contentLength: Int64? {
        guard contentLengthEntry >= 0 else { return nil }
        let found = entries[contentLengthEntry]
        return bytes.withUnsafeBufferPointer { all -> Int64? in
            var index = Int(found.valueStart)
            let end = Int(found.valueEnd)
            var negative = false
            if index < end, all[index] == UInt8(ascii: "+") || all[index] == UInt8(ascii: "-") {
                negative = all[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < end else { return nil }
            var value: Int64 = 0
            while index < end {
                let digit = all[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(negative ? -Int64(digit) : Int64(digit))
                guard !overflow, !carry else { return nil }
                value = sum
                index += 1
            }
            return value
        }
    }

    /// Every field in arrival order.
    var fields: [(name: String, value: String)] {
        entries.map { (text($0.nameStart, $0.nameEnd), text($0.valueStart, $0.valueEnd)) }
    }

    private func text(_ start: Int32, _ end: Int32) -> String {
        bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)]), as: UTF8.self)
        }
    }

    /// Whether the entry's name is `name`.
    private func matches(_ entry: Entry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            Self.sameName(UnsafeBufferPointer(rebasing: all[Int(entry.nameStart)..<Int(entry.nameEnd)]), name)
        }
    }

    /// The same for a name known when the library is built: no `String` to walk.
    private static func sameName(_ stored: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        sameName(stored, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether two names are the same, ASCII letters compared without case, other bytes exactly.
    private static func sameName(_ stored: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == name.count else { return false }
        for index in 0..<name.count {
            let (byte, expected) = (stored[index], name[index])
            if byte != expected {
                let lower = byte | 0x20
                guard lower == expected | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else {
                    return false
                }
            }
        }
        return true
    }

    /// `lower..<upper` of `line` without leading and trailing spaces and tabs.
    @inline(__always)
    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Range<Int> {
        var lower = lower
        var upper = upper
        while lower < upper, line[lower] == 0x20 || line[lower] == 0x09 { lower += 1 }
        while upper > lower, line[upper - 1] == 0x20 || line[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }
}
