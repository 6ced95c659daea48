import Foundation

/// EndpointKit's response cache: a memory tier in front of a disk tier, both bounded and evicted
/// least-recently-used first.
///
/// URLCache stores nothing on Linux, so EndpointKit keeps its own. Give a client one with
/// `configuration.cache = ResponseCache(directory: ...)`; requests opt in or tune it with
/// ``APIRequest/cachePolicy``.
///
/// Damaged files in the folder are removed rather than read; when the disk refuses a write (full,
/// read-only) the cache keeps working from memory.
public final class ResponseCache: Sendable {
    private struct MemoryItem {
        var entry: CachedResponse
        var size: Int
        var lastUse: UInt64
    }

    private struct DiskItem {
        var size: Int
        var lastUse: UInt64
    }

    private struct State {
        var memory: [String: MemoryItem] = [:]
        var memorySize = 0
        var disk: [String: DiskItem] = [:]
        var diskSize = 0
        var clock: UInt64 = 0
        var diskUsable = true
    }

    /// The most bytes kept in memory.
    public let memoryCapacity: Int
    /// The most bytes kept on disk (0 for a memory-only cache).
    public let diskCapacity: Int
    /// Whether the cache serves several users (a server): `Cache-Control: private` is then not
    /// stored and `s-maxage` wins over `max-age`. `false` by default.
    public let isShared: Bool
    private let store: DiskCacheStore?
    private let state = Locked(State())

    /// Creates a cache.
    /// - Parameters:
    ///   - directory: The folder the cache owns (created if needed); `nil` for memory only.
    ///   - memoryCapacity: 8 MiB by default.
    ///   - diskCapacity: 128 MiB by default.
    ///   - isShared: `false` by default.
    public init(
        directory: URL?, memoryCapacity: Int = 8 * 1024 * 1024, diskCapacity: Int = 128 * 1024 * 1024,
        isShared: Bool = false
    ) {
        self.memoryCapacity = max(0, memoryCapacity)
        self.diskCapacity = directory == nil ? 0 : max(0, diskCapacity)
        self.isShared = isShared
        store = directory.map(DiskCacheStore.init(folder:))
        if let store {
            let found = store.scan().sorted { $0.lastUse < $1.lastUse }
            state.withLock { state in
                for file in found {
                    state.clock += 1
                    state.disk[file.name] = DiskItem(size: file.size, lastUse: state.clock)
                    state.diskSize += file.size
                }
                evictDisk(&state)
            }
        }
    }

    /// The entry stored under `key`, from memory or disk.
    public func cachedResponse(forKey key: String) -> CachedResponse? {
        let hit = state.withLock { state -> CachedResponse? in
            state.clock += 1
            guard var item = state.memory[key] else { return nil }
            item.lastUse = state.clock
            state.memory[key] = item
            return item.entry
        }
        if let hit { return hit }
        guard let store else { return nil }
        // The file name is a digest of the key: made outside the lock, and only on a memory miss.
        let name = DiskCacheStore.fileName(for: key)
        return state.withLock { state -> CachedResponse? in
            if let item = state.memory[key] { return item.entry }  // stored meanwhile
            guard state.disk[name] != nil else { return nil }
            guard let entry = store.read(name, key: key) else {
                if let removed = state.disk.removeValue(forKey: name) { state.diskSize -= removed.size }
                return nil
            }
            state.clock += 1
            state.disk[name]?.lastUse = state.clock
            insertInMemory(entry, &state)
            return entry
        }
    }

    /// Stores an entry under its key, replacing what was there.
    public func store(_ entry: CachedResponse) {
        let name = DiskCacheStore.fileName(for: entry.key)
        state.withLock { state in
            state.clock += 1
            insertInMemory(entry, &state)
            guard let store, state.diskUsable, diskCapacity > 0 else { return }
            guard let size = store.write(entry, name: name) else {
                state.diskUsable = false  // full or read-only: keep serving from memory
                return
            }
            if let previous = state.disk[name] { state.diskSize -= previous.size }
            state.disk[name] = DiskItem(size: size, lastUse: state.clock)
            state.diskSize += size
            evictDisk(&state)
        }
    }

    /// Removes the entry stored under `key`.
    public func removeEntry(forKey key: String) {
        removeAll { $0.key == key }
    }

    /// Removes every entry whose URL starts with `prefix`.
    public func removeAll(urlPrefix prefix: String) {
        removeAll { $0.url.absoluteString.hasPrefix(prefix) }
    }

    /// Removes every entry stored with this tag (``CachePolicy/tags``).
    public func removeAll(tagged tag: String) {
        removeAll { $0.tags.contains(tag) }
    }

    /// Removes everything.
    public func removeAll() {
        removeAll { _ in true }
    }

    /// Bytes used in memory and on disk.
    public var usage: (memory: Int, disk: Int) { state.withLock { ($0.memorySize, $0.diskSize) } }

    private func removeAll(where matches: (CachedResponse) -> Bool) {
        state.withLock { state in
            for (key, item) in state.memory where matches(item.entry) {
                state.memory[key] = nil
                state.memorySize -= item.size
            }
            guard let store else { return }
            for (name, item) in state.disk {
                guard let data = try? Data(contentsOf: store.folder.appendingPathComponent(name)),
                    let entry = DiskCacheStore.decode(data)
                else {
                    store.remove(name)
                    state.disk[name] = nil
                    state.diskSize -= item.size
                    continue
                }
                if matches(entry) {
                    store.remove(name)
                    state.disk[name] = nil
                    state.diskSize -= item.size
                }
            }
        }
    }

    private func insertInMemory(_ entry: CachedResponse, _ state: inout State) {
        let size = entry.body.count + entry.headers.reduce(256) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        if let previous = state.memory.removeValue(forKey: entry.key) { state.memorySize -= previous.size }
        guard size <= memoryCapacity else { return }
        state.memory[entry.key] = MemoryItem(entry: entry, size: size, lastUse: state.clock)
        state.memorySize += size
        while state.memorySize > memoryCapacity,
            let oldest = state.memory.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            state.memory[oldest.key] = nil
            state.memorySize -= oldest.value.size
        }
    }

    private func evictDisk(_ state: inout State) {
        while state.diskSize > diskCapacity, let oldest = state.disk.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            store?.remove(oldest.key)
            state.disk[oldest.key] = nil
            state.diskSize -= oldest.value.size
        }
    }
}
