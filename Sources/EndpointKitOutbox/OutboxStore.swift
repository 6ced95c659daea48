import EndpointKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An outbox directory and every change made to it, each one durable when it returns (see
/// ``DurableFile``).
///
/// ```text
/// <directory>/
///   .lock        held (flock) by the one outbox that has the directory open
///   entries/     <sequence>-<id>.entry: waiting, in order
///   bodies/      <id>.body: the body of an entry whose body was a file (a multipart form, an upload)
///   dead/        <sequence>-<id>.entry: dead letters
///   results/     <id>.result: results the app has not heard yet
///   damaged/     files that failed their check, moved aside
///   tmp/         files being written; emptied at open
/// ```
///
/// An entry ends by writing its result, then removing its entry file: after a crash between the
/// two, ``load()`` finds both and keeps the result. Changes are serialized, and ``close()`` waits
/// for the one under way, so nothing changes the directory once another outbox may have it.
final class OutboxStore: Sendable {
    let root: URL
    let entries: URL
    let bodies: URL
    let dead: URL
    let results: URL
    let damaged: URL
    let temporary: URL
    /// The lock file's descriptor, -1 once closed; held while a change is made.
    private let lockFile: Locked<Int32>

    /// Opens (creating) the directory and takes its lock.
    init(directory: URL) throws(OutboxError) {
        root = directory
        entries = directory.appendingPathComponent("entries", isDirectory: true)
        bodies = directory.appendingPathComponent("bodies", isDirectory: true)
        dead = directory.appendingPathComponent("dead", isDirectory: true)
        results = directory.appendingPathComponent("results", isDirectory: true)
        damaged = directory.appendingPathComponent("damaged", isDirectory: true)
        temporary = directory.appendingPathComponent("tmp", isDirectory: true)
        for folder in [directory, entries, bodies, dead, results, damaged, temporary] {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                throw DurableFile.error(code.map { Int32($0) } ?? EACCES, path: folder.path)
            }
            DurableFile.protect(folder.path)
        }
        let path = directory.appendingPathComponent(".lock").path
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // A directory that became read-only still opens (what it holds can be sent); enqueues then
        // fail with directoryNotWritable.
        if descriptor < 0, [EROFS, EACCES].contains(errno) { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw DurableFile.error(errno, path: path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw code == EWOULDBLOCK ? .directoryInUse(path: directory.path) : DurableFile.error(code, path: path)
        }
        lockFile = Locked(descriptor)
        // What was being written when the last process stopped is not part of anything.
        for name in Self.names(in: temporary) { unlink(temporary.appendingPathComponent(name).path) }
    }

    deinit { close() }

    /// Releases the directory, after the change under way; later changes do nothing.
    func close() {
        lockFile.withLock { descriptor in
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    /// Runs `change` unless the store is closed, with other changes kept out.
    func change<Value>(_ body: () throws(OutboxError) -> Value) throws(OutboxError) -> Value? {
        let outcome = lockFile.withLock { descriptor -> Result<Value, OutboxError>? in
            guard descriptor >= 0 else { return nil }
            do throws(OutboxError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome?.get()
    }

    // MARK: - Entries

    func entryFile(_ record: EntryRecord) -> URL { entries.appendingPathComponent(record.fileName) }
    func deadFile(_ record: EntryRecord) -> URL { dead.appendingPathComponent(record.fileName) }
    func bodyFile(_ id: UUID) -> URL { bodies.appendingPathComponent(id.uuidString + ".body") }
    func resultFile(_ id: UUID) -> URL { results.appendingPathComponent(id.uuidString + ".result") }

    /// Stores a new entry: its body file first (a copy of `bodyFile`), then its record with the
    /// `body` bytes. Returns the bytes it takes on disk.
    func add(_ record: EntryRecord, body: Data, bodyFile source: URL?) throws(OutboxError) -> Int64 {
        let size = try change { () throws(OutboxError) -> Int64 in
            var size: Int64 = 0
            if let source {
                try DurableFile.copy(source, to: bodyFile(record.id), temporaryDirectory: temporary)
                size += LocalFile.size(bodyFile(record.id)) ?? 0
            }
            do throws(OutboxError) {
                let parts = try RecordFile.encode(record, payload: body)
                try DurableFile.write(parts, to: entryFile(record), temporaryDirectory: temporary)
                return size + Int64(parts.reduce(0) { $0 + $1.count })
            } catch {
                if source != nil { try? DurableFile.remove(bodyFile(record.id)) }
                throw error
            }
        }
        guard let size else { throw .fileSystemError(path: root.path, reason: "the outbox is closed") }
        return size
    }

    /// The body of a waiting entry (`folder`: ``entries`` or ``dead``): the record's payload, or
    /// its body file.
    /// - Throws: ``RecordDamage`` when the file no longer passes its check.
    func body(of record: EntryRecord, in folder: URL) throws(RecordDamage) -> (data: Data?, file: URL?) {
        let url = folder.appendingPathComponent(record.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw RecordDamage("it is gone") }
        let (_, payload) = try RecordFile.decode(EntryRecord.self, from: data)
        guard record.bodyInFile else { return (payload.isEmpty ? nil : payload, nil) }
        let file = bodyFile(record.id)
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw RecordDamage("its body file \(file.lastPathComponent) is missing")
        }
        return (nil, file)
    }

    /// Ends a waiting entry: its result is written (best effort: a full disk still ends it), then
    /// its files are removed.
    func finish(_ record: EntryRecord, with result: FinishedEntry) {
        _ = try? change { () throws(OutboxError) in
            try? write(result)
            try? DurableFile.remove(entryFile(record))
            if record.bodyInFile { try? DurableFile.remove(bodyFile(record.id)) }
        }
    }

    /// Makes a waiting entry a dead letter: the record with its failure into ``dead``, its result,
    /// then the waiting file removed.
    func moveToDeadLetters(_ record: EntryRecord, body: Data, result: FinishedEntry) throws(OutboxError) {
        _ = try change { () throws(OutboxError) in
            try DurableFile.write(
                RecordFile.encode(record, payload: body), to: deadFile(record), temporaryDirectory: temporary)
            try? write(result)
            try DurableFile.remove(entryFile(record))
        }
    }

    /// Puts a dead letter back among the waiting entries.
    func revive(_ record: EntryRecord) throws(OutboxError) {
        _ = try change { () throws(OutboxError) in try DurableFile.rename(deadFile(record), to: entryFile(record)) }
    }

    /// Removes a dead letter and its body.
    func discard(_ record: EntryRecord) throws(OutboxError) {
        _ = try change { () throws(OutboxError) in
            try DurableFile.remove(deadFile(record))
            if record.bodyInFile { try? DurableFile.remove(bodyFile(record.id)) }
        }
    }

    // MARK: - Results and damage

    /// Writes a result to hand over (no lock taken: the caller holds it, or it is opening).
    func write(_ result: FinishedEntry) throws(OutboxError) {
        let (record, payload) = result.record
        try DurableFile.write(
            RecordFile.encode(record, payload: payload), to: resultFile(result.id), temporaryDirectory: temporary)
    }

    /// Removes a result the app has heard.
    func removeResult(_ id: UUID) {
        _ = try? change { () throws(OutboxError) in try DurableFile.remove(resultFile(id)) }
    }

    /// Moves a damaged file into ``damaged`` and records a result that reports it.
    func quarantine(_ url: URL, id: UUID?, reason: String) -> FinishedEntry {
        var target = damaged.appendingPathComponent(url.lastPathComponent)
        if FileManager.default.fileExists(atPath: target.path) {
            target = damaged.appendingPathComponent(UUID().uuidString + "-" + url.lastPathComponent)
        }
        let result = FinishedEntry(id: id ?? UUID(), kind: "", outcome: .damaged(file: target, reason: reason))
        _ = try? change { () throws(OutboxError) in
            do {
                try DurableFile.rename(url, to: target)
            } catch {
                try? DurableFile.remove(url)
            }
            try? write(result)
        }
        return result
    }

    /// The names in a folder, sorted (none when it cannot be read).
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// `close(2)`, named apart from ``OutboxStore/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
