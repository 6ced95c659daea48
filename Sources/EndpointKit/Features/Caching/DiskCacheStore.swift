import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the disk tier of a ``ResponseCache`` is doing, told to the observer it was made with
/// (tests record where each step runs).
package enum DiskCacheAccess: Sendable {
    /// Making an entry's file name, a digest of its key.
    case digest
    /// Reading an entry's file.
    case read
    /// Writing an entry's file.
    case write
}

/// The disk tier of ``ResponseCache``: one file per entry in a folder the cache owns, written to
/// a temporary name and renamed into place, so a reader never sees half an entry and concurrent
/// writers of one key leave one whole entry. It holds no lock: the cache calls it outside its own.
///
/// File format: the magic `EKC1`, a 4-byte big-endian length, the entry's metadata as JSON, the
/// body. Anything else in the folder (corrupt, truncated, foreign) is removed.
struct DiskCacheStore: Sendable {
    /// What reading an entry's file found.
    enum ReadOutcome {
        case entry(CachedResponse)
        /// No file (removed or evicted meanwhile).
        case missing
        /// A file that is not a whole entry.
        case damaged
    }

    let folder: URL
    private let observe: @Sendable (DiskCacheAccess) -> Void
    private static let magic = Data("EKC1".utf8)
    private static let suffix = ".ekcache"

    init(folder: URL, observe: @escaping @Sendable (DiskCacheAccess) -> Void) {
        self.folder = folder
        self.observe = observe
    }

    /// Creates the folder and lists the valid-looking entry files with their sizes and last use;
    /// removes anything that is not an entry file.
    func scan() -> [(name: String, size: Int, lastUse: Date)] {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var found: [(String, Int, Date)] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard name.hasSuffix(Self.suffix), !name.hasPrefix("."),
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                let size = (attributes[.size] as? NSNumber)?.intValue, size > Self.magic.count + 4
            else {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            found.append((name, size, attributes[.modificationDate] as? Date ?? .distantPast))
        }
        return found
    }

    /// The name of the file of the entry stored under `key`.
    func fileName(for key: String) -> String {
        observe(.digest)
        return Digest.hex(key) + Self.suffix
    }

    /// Reads an entry's file; `touching` marks it used (its modification date orders eviction in
    /// the next session). Removes nothing: the cache decides, knowing whether it was written anew.
    func read(_ name: String, touching: Bool = true) -> ReadOutcome {
        observe(.read)
        let url = folder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else {
            return FileManager.default.fileExists(atPath: url.path) ? .damaged : .missing
        }
        guard let entry = Self.decode(data) else { return .damaged }
        if touching { try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path) }
        return .entry(entry)
    }

    /// Writes an entry atomically; returns its size, or `nil` if the disk refused (full, read-only).
    func write(_ entry: CachedResponse, name: String) -> Int? {
        observe(.write)
        guard let data = Self.encode(entry) else { return nil }
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return nil
        }
        // rename(2) replaces the old file atomically: readers see the old entry or the new one.
        guard rename(temporary.path, folder.appendingPathComponent(name).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return nil
        }
        return data.count
    }

    func remove(_ name: String) { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }

    static func encode(_ entry: CachedResponse) -> Data? {
        var header = entry
        header.body = Data()
        guard let metadata = try? JSONEncoder().encode(header), metadata.count < Int(UInt32.max) else { return nil }
        var data = magic
        withUnsafeBytes(of: UInt32(metadata.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(metadata)
        data.append(entry.body)
        return data
    }

    static func decode(_ data: Data) -> CachedResponse? {
        guard data.count >= magic.count + 4, data.prefix(magic.count) == magic else { return nil }
        let lengthBytes = data.dropFirst(magic.count).prefix(4)
        let length = lengthBytes.reduce(0) { ($0 << 8) | Int($1) }
        let start = data.startIndex + magic.count + 4
        guard length > 0, start + length <= data.endIndex,
            var entry = try? JSONDecoder().decode(CachedResponse.self, from: data[start..<start + length])
        else { return nil }
        entry.body = Data(data[(start + length)...])
        return entry
    }
}
