import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk tier of ``ResponseCache``: one file per entry in a folder the cache owns, written to
/// a temporary name and renamed into place, so a reader never sees half an entry and concurrent
/// writers of one key leave one whole entry.
///
/// File format: the magic `EKC1`, a 4-byte big-endian length, the entry's metadata as JSON, the
/// body. Anything else in the folder (corrupt, truncated, foreign) is removed.
struct DiskCacheStore: Sendable {
    let folder: URL
    private static let magic = Data("EKC1".utf8)
    private static let suffix = ".ekcache"

    init(folder: URL) { self.folder = folder }

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

    static func fileName(for key: String) -> String {
        Digest.hex(key) + suffix
    }

    /// Reads an entry; a corrupt or foreign file, or one stored under another key, is removed.
    func read(_ name: String, key: String) -> CachedResponse? {
        let url = folder.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let entry = Self.decode(data), entry.key == key else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
        return entry
    }

    /// Writes an entry atomically; returns its size, or `nil` if the disk refused (full, read-only).
    func write(_ entry: CachedResponse, name: String) -> Int? {
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
