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
        /// A clock tick that changes whenever the file is written: a read that started before a
        /// write does not put what it read into memory.
        var version: UInt64
    }

    /// The memory tier and the bookkeeping of the disk tier. The lock guards only this: files
    /// are read, written and removed outside it (a write is a rename, so a reader sees the old
    /// entry or the new one), and a memory hit never waits for the disk.
    private struct State {
        var memory: [String: MemoryItem] = [:]
        var memorySize = 0
        var disk: [String: DiskItem] = [:]
        var diskSize = 0
        /// Writes in progress, by file name.
        var writing: [String: Int] = [:]
        var clock: UInt64 = 0
        var diskUsable = true
    }

    /// The most bytes kept in memory.
    let memoryCapacity: Int
    /// The most bytes kept on disk (0 for a memory-only cache).
    let diskCapacity: Int
    /// Whether the cache serves several users (a server): `Cache-Control: private` is then not
    /// stored and `s-maxage` wins over `max-age`. `false` by default.
    let isShared: Bool
    private let store: DiskCacheStore?
    private let state = Locked(State())

    /// Creates a cache.
    /// - Parameters:
    ///   - directory: The folder the cache owns (created if needed); `nil` for memory only.
    ///   - memoryCapacity: 8 MiB by default.
    ///   - diskCapacity: 128 MiB by default.
    ///   - isShared: `false` by default.
    public convenience init(
        directory: URL?, memoryCapacity: Int = 8 * 1024 * 1024, diskCapacity: Int = 128 * 1024 * 1024,
        isShared: Bool = false
    ) {
        self.init(
            directory: directory, memoryCapacity: memoryCapacity, diskCapacity: diskCapacity, isShared: isShared,
            observingDisk: { _ in })
    }

    /// Creates a cache whose disk tier tells `observe` each step it takes, on the thread it runs
    /// on (for tests).
    package init(
        directory: URL?, memoryCapacity: Int = 8 * 1024 * 1024, diskCapacity: Int = 128 * 1024 * 1024,
        isShared: Bool = false, observingDisk observe: @escaping @Sendable (DiskCacheAccess) -> Void
    ) {
        self.memoryCapacity = max(0, memoryCapacity)
        self.diskCapacity = directory == nil ? 0 : max(0, diskCapacity)
        self.isShared = isShared
        store = directory.map { DiskCacheStore(folder: $0, observe: observe) }
        guard let store else { return }
        let found = store.scan().sorted { $0.lastUse < $1.lastUse }
        let evicted = state.withLock { state -> [String] in
            for file in found {
                state.clock += 1
                state.disk[file.name] = DiskItem(size: file.size, lastUse: state.clock, version: state.clock)
                state.diskSize += file.size
            }
            return evictDisk(&state)
        }
        for name in evicted { store.remove(name) }
    }

    /// The entry stored under `key`, from memory or disk.
    package func cachedResponse(forKey key: String) -> CachedResponse? {
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
        let name = store.fileName(for: key)
        let (stored, version) = state.withLock { state -> (CachedResponse?, UInt64?) in
            if let item = state.memory[key] { return (item.entry, nil) }  // stored meanwhile
            return (nil, state.disk[name]?.version)
        }
        if let stored { return stored }
        guard let version else { return nil }
        var outcome = store.read(name)
        if case .entry(let entry) = outcome, entry.key != key { outcome = .damaged }  // another key's
        let (entry, remove) = state.withLock { state -> (CachedResponse?, Bool) in
            let newer = state.memory[key]?.entry
            guard let item = state.disk[name] else { return (newer, false) }  // removed meanwhile
            guard case .entry(let entry) = outcome else {
                // Gone or damaged: forgotten, unless it was written again meanwhile.
                guard item.version == version, state.writing[name] == nil else { return (newer, false) }
                state.disk[name] = nil
                state.diskSize -= item.size
                return (nil, true)
            }
            if let newer { return (newer, false) }
            state.clock += 1
            state.disk[name]?.lastUse = state.clock
            if item.version == version, state.writing[name] == nil { insertInMemory(entry, &state) }
            return (entry, false)
        }
        if remove, case .damaged = outcome { store.remove(name) }
        return entry
    }

    /// Stores an entry under its key, replacing what was there.
    package func store(_ entry: CachedResponse) {
        let name = diskCapacity > 0 ? store?.fileName(for: entry.key) : nil
        let onDisk = state.withLock { state -> Bool in
            state.clock += 1
            insertInMemory(entry, &state)
            guard let name, state.diskUsable, diskCapacity > 0 else { return false }
            state.writing[name, default: 0] += 1
            state.disk[name]?.version = state.clock
            return true
        }
        guard onDisk, let store, let name else { return }
        let size = store.write(entry, name: name)
        let evicted = state.withLock { state -> [String] in
            state.clock += 1
            if let count = state.writing[name] { state.writing[name] = count > 1 ? count - 1 : nil }
            guard let size else {
                state.diskUsable = false  // full or read-only: keep serving from memory
                return []
            }
            if let previous = state.disk[name] { state.diskSize -= previous.size }
            state.disk[name] = DiskItem(size: size, lastUse: state.clock, version: state.clock)
            state.diskSize += size
            return evictDisk(&state)
        }
        for name in evicted { store.remove(name) }
    }

    /// Removes the entry stored under `key`.
    package func removeEntry(forKey key: String) {
        let name = store?.fileName(for: key)
        let onDisk = state.withLock { state -> Bool in
            if let removed = state.memory.removeValue(forKey: key) { state.memorySize -= removed.size }
            guard let name, let removed = state.disk.removeValue(forKey: name) else { return false }
            state.diskSize -= removed.size
            return true
        }
        if onDisk, let store, let name { store.remove(name) }
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
    package var usage: (memory: Int, disk: Int) { state.withLock { ($0.memorySize, $0.diskSize) } }

    private func removeAll(where matches: (CachedResponse) -> Bool) {
        let files = state.withLock { state -> [(name: String, version: UInt64)] in
            for (key, item) in state.memory where matches(item.entry) {
                state.memory[key] = nil
                state.memorySize -= item.size
            }
            return state.disk.map { ($0.key, $0.value.version) }
        }
        guard let store, !files.isEmpty else { return }
        // Each file is read outside the lock; one written again meanwhile is left alone.
        var doomed: [(name: String, version: UInt64)] = []
        for file in files {
            switch store.read(file.name, touching: false) {
            case .entry(let entry) where !matches(entry): continue
            case .entry, .missing, .damaged: doomed.append(file)
            }
        }
        let removed = state.withLock { state -> [String] in
            doomed.compactMap { file -> String? in
                guard let item = state.disk[file.name], item.version == file.version else { return nil }
                state.disk[file.name] = nil
                state.diskSize -= item.size
                return file.name
            }
        }
        for name in removed { store.remove(name) }
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

    /// Drops the least recently used files from the bookkeeping until the disk tier fits its
    /// capacity; returns their names, for the caller to remove once it released the lock.
    private func evictDisk(_ state: inout State) -> [String] {
        var evicted: [String] = []
        while state.diskSize > diskCapacity, let oldest = state.disk.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            evicted.append(oldest.key)
            state.disk[oldest.key] = nil
            state.diskSize -= oldest.value.size
        }
        return evicted
    }
}
