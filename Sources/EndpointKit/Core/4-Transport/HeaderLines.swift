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
///
/// Everything lives in one buffer (``Store``): the bytes from its start, the entries saying where
/// each field is from its end, so a head makes one object whatever its number of fields, and
/// adding a line is a copy and four numbers. A copy shares the buffer until one side changes it.
struct HeaderLines: @unchecked Sendable {
    /// Where one field's name and value are in the bytes (the bytes between the name and the
    /// value are the colon and the spaces around it).
    private struct Entry {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
    }

    /// What the buffer holds; its capacity is the room for bytes and entries together.
    private struct Counts {
        var capacity: Int
        var bytes = 0
        var entries = 0
        /// The entry of the `Content-Length` field, noted as it arrives: -1 none, -2 more than one.
        var contentLengthEntry = -1
        var hasSetCookie = false
    }

    /// Bytes grow from the start of the elements, entries (16 bytes each) from the end. Read and
    /// written through its pointers only (as ``Locked`` does), never through `header`, whose
    /// every access is checked for exclusivity at run time.
    private final class Store: ManagedBuffer<Counts, UInt8> {
        static func make(capacity: Int) -> Store {
            let buffer = create(minimumCapacity: capacity) { _ in Counts(capacity: capacity) }
            // `create` on a subclass returns an instance of that subclass.
            return unsafeDowncast(buffer, to: Store.self)
        }

        /// A store with `capacity` holding this one's bytes, entries and notes.
        func copy(capacity: Int) -> Store {
            let copy = Store.make(capacity: capacity)
            withUnsafeMutablePointers { counts, from in
                copy.withUnsafeMutablePointers { copyCounts, to in
                    let old = counts.pointee
                    copyCounts.pointee = old
                    copyCounts.pointee.capacity = capacity
                    let entryBytes = old.entries * entrySize
                    to.update(from: from, count: old.bytes)
                    (to + capacity - entryBytes).update(from: from + old.capacity - entryBytes, count: entryBytes)
                }
            }
            return copy
        }
    }

    /// The size of an entry in the store.
    private static var entrySize: Int { MemoryLayout<Entry>.size }

    /// Where entry `index` is in a store's elements (entries grow from the end).
    private static func entryOffset(_ index: Int, _ counts: Counts) -> Int {
        counts.capacity - (index + 1) * entrySize
    }

    private var store: Store?

    /// Whether there is no field.
    var isEmpty: Bool { store?.withUnsafeMutablePointerToHeader { $0.pointee.entries == 0 } ?? true }

    /// Whether a `Set-Cookie` field arrived (the transport stores cookies only then).
    var hasSetCookie: Bool { store?.withUnsafeMutablePointerToHeader { $0.pointee.hasSetCookie } ?? false }

    /// Adds one field line (without its CRLF). A line starting with a space or a tab continues the
    /// previous field (obsolete folding, RFC 9112 §5.2); before any field it is dropped (§2.2). A
    /// line without a colon after a non-empty name is dropped.
    mutating func append(_ line: UnsafeRawBufferPointer) {
        guard let base = line.baseAddress, !line.isEmpty else { return }
        let first = base.assumingMemoryBound(to: UInt8.self)
        let line = UnsafeBufferPointer(start: first, count: line.count)
        if line[0] == 0x20 || line[0] == 0x09 { return appendContinuation(line) }
        guard let found = memchr(base, Int32(UInt8(ascii: ":")), line.count) else { return }
        let colon = base.distance(to: UnsafeRawPointer(found))
        guard colon > 0 else { return }
        let name = Self.trimmed(line, 0, colon)
        let value = Self.trimmed(line, colon + 1, line.count)
        guard name.lowerBound < name.upperBound else { return }
        // One copy from the name's start to the value's end (the colon and spaces between stay).
        let length = value.upperBound - name.lowerBound
        guard let store = room(for: length) else { return }
        store.withUnsafeMutablePointers { counts, elements in
            let start = counts.pointee.bytes
            (elements + start).update(from: first + name.lowerBound, count: length)
            counts.pointee.bytes = start + length
            let index = counts.pointee.entries
            Self.noteKnownField(UnsafeBufferPointer(rebasing: line[name]), index: index, in: &counts.pointee)
            // `room(for:)` keeps every offset within 32 bits.
            let shift = start - name.lowerBound
            let entry = Entry(
                nameStart: Int32(truncatingIfNeeded: start),
                nameEnd: Int32(truncatingIfNeeded: name.upperBound + shift),
                valueStart: Int32(truncatingIfNeeded: value.lowerBound + shift),
                valueEnd: Int32(truncatingIfNeeded: value.upperBound + shift))
            UnsafeMutableRawPointer(elements).storeBytes(
                of: entry, toByteOffset: Self.entryOffset(index, counts.pointee), as: Entry.self)
            counts.pointee.entries = index + 1
        }
    }

    /// A folded line: its trimmed text joins the last field's value after one space.
    private mutating func appendContinuation(_ line: UnsafeBufferPointer<UInt8>) {
        guard !isEmpty else { return }
        let continuation = Self.trimmed(line, 0, line.count)
        guard let store = room(for: continuation.count + 1) else { return }
        store.withUnsafeMutablePointers { counts, elements in
            let offset = Self.entryOffset(counts.pointee.entries - 1, counts.pointee)
            var last = UnsafeRawPointer(elements).loadUnaligned(fromByteOffset: offset, as: Entry.self)
            // The last field's value ends the bytes: the continuation goes right after it.
            var end = Int(last.valueEnd)
            if let source = line.baseAddress, continuation.lowerBound < continuation.upperBound {
                if last.valueEnd > last.valueStart {
                    elements[end] = 0x20
                    end += 1
                }
                (elements + end).update(from: source + continuation.lowerBound, count: continuation.count)
                end += continuation.count
            }
            counts.pointee.bytes = end
            last.valueEnd = Int32(truncatingIfNeeded: end)
            UnsafeMutableRawPointer(elements).storeBytes(of: last, toByteOffset: offset, as: Entry.self)
        }
    }

    /// This head's store, unshared, with room for `bytes` more bytes and one more entry; `nil` when
    /// they would take the head past 2 GiB (offsets are 32-bit: the line is dropped).
    private mutating func room(for bytes: Int) -> Store? {
        let counts = store?.withUnsafeMutablePointerToHeader { $0.pointee } ?? Counts(capacity: 0)
        guard counts.bytes + bytes < Int(Int32.max) else { return nil }
        let needed = bytes + Self.entrySize
        let held = counts.bytes + counts.entries * Self.entrySize
        if isKnownUniquelyReferenced(&store), let store, counts.capacity - held >= needed { return store }
        return grow(toFit: needed, capacity: counts.capacity, held: held)
    }

    /// ``room(for:)`` when the store is shared, full or not made yet.
    @inline(never)
    private mutating func grow(toFit needed: Int, capacity: Int, held: Int) -> Store {
        var grown = max(capacity, 512)
        while grown - held < needed { grown *= 2 }
        let store = self.store?.copy(capacity: grown) ?? Store.make(capacity: grown)
        self.store = store
        return store
    }

    /// Removes every field (a new status line starts a new head).
    mutating func removeAll() {
        guard isKnownUniquelyReferenced(&store), let store else {
            store = nil
            return
        }
        store.withUnsafeMutablePointerToHeader { $0.pointee = Counts(capacity: $0.pointee.capacity) }
    }

    /// Notes a new field named `name` if it is one the transport reads on every response, so
    /// that reading it needs no search.
    private static func noteKnownField(_ name: UnsafeBufferPointer<UInt8>, index: Int, in counts: inout Counts) {
        let contentLength: StaticString = "content-length"
        let setCookie: StaticString = "set-cookie"
        if sameName(name, contentLength) {
            counts.contentLengthEntry = counts.contentLengthEntry == -1 ? index : -2
        } else if sameName(name, setCookie) {
            counts.hasSetCookie = true
        }
    }

    /// Runs `body` with every entry and the bytes they point into.
    private func withEntries<Result>(
        _ body: (_ count: Int, _ entry: (Int) -> Entry, _ bytes: (Int32, Int32) -> UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        store?.withUnsafeMutablePointers { counts, elements in
            let counts = counts.pointee
            return body(
                counts.entries,
                { index in
                    UnsafeRawPointer(elements).loadUnaligned(
                        fromByteOffset: Self.entryOffset(index, counts), as: Entry.self)
                },
                { start, end in UnsafeBufferPointer(start: elements + Int(start), count: Int(end) - Int(start)) })
        }
    }

    /// The value of the field `name` (case-insensitive); repeated fields joined with ", ".
    func value(for name: String) -> String? {
        var name = name
        return name.withUTF8 { name in
            withEntries { count, entry, bytes -> String? in
                var result: String?
                for index in 0..<count {
                    let found = entry(index)
                    guard Self.sameName(bytes(found.nameStart, found.nameEnd), name) else { continue }
                    let value = String(decoding: bytes(found.valueStart, found.valueEnd), as: UTF8.self)
                    result = result.map { $0 + ", " + value } ?? value
                }
                return result
            } ?? nil
        }
    }

    /// The `Content-Length` field read as a decimal integer, as `Int64(value(for:))` reads it,
    /// without making the `String`: `nil` when the field is missing, repeated, or not a number
    /// that fits.
    var contentLength: Int64? {
        store?.withUnsafeMutablePointers { counts, elements -> Int64? in
            let counts = counts.pointee
            guard counts.contentLengthEntry >= 0 else { return nil }
            let found = UnsafeRawPointer(elements).loadUnaligned(
                fromByteOffset: Self.entryOffset(counts.contentLengthEntry, counts), as: Entry.self)
            var index = Int(found.valueStart)
            let end = Int(found.valueEnd)
            var negative = false
            if index < end, elements[index] == UInt8(ascii: "+") || elements[index] == UInt8(ascii: "-") {
                negative = elements[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < end else { return nil }
            var value: Int64 = 0
            while index < end {
                let digit = elements[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(negative ? -Int64(digit) : Int64(digit))
                guard !overflow, !carry else { return nil }
                value = sum
                index += 1
            }
            return value
        } ?? nil
    }

    /// Every field in arrival order.
    var fields: [(name: String, value: String)] {
        withEntries { count, entry, bytes in
            (0..<count).map { index in
                let found = entry(index)
                return (
                    String(decoding: bytes(found.nameStart, found.nameEnd), as: UTF8.self),
                    String(decoding: bytes(found.valueStart, found.valueEnd), as: UTF8.self)
                )
            }
        } ?? []
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
