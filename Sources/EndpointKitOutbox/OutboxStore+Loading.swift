import EndpointKit
import Foundation

/// An entry as the outbox holds it in memory: its record (the body stays on disk) and the bytes
/// its files take.
struct StoredEntry: Sendable {
    var record: EntryRecord
    var size: Int64
}

extension OutboxStore {
    /// What a directory holds at open.
    struct Contents: Sendable {
        /// Waiting entries, in order.
        var pending: [StoredEntry] = []
        /// Dead letters, in order.
        var deadLetters: [StoredEntry] = []
        /// Results not handed over yet, oldest first, with a report of each file found damaged.
        var results: [FinishedEntry] = []
        /// The sequence number of the next entry.
        var nextSequence: UInt64 = 1
    }

    /// Reads the directory as the last process left it: results, dead letters, then waiting
    /// entries. An entry that has a result or a dead letter already ended (the process stopped
    /// before removing it) and is removed now; a file that fails its check is quarantined and
    /// reported; a body no entry refers to is removed.
    func load() -> Contents {
        var contents = Contents()
        for name in Self.names(in: results) where name.hasSuffix(".result") {
            let url = results.appendingPathComponent(name)
            let id = UUID(uuidString: String(name.dropLast(".result".count)))
            do throws(RecordDamage) {
                let (record, payload) = try read(FinishedEntry.Record.self, at: url)
                guard let result = FinishedEntry(record, payload: payload) else {
                    throw RecordDamage("its values do not make a result")
                }
                contents.results.append(result)
            } catch {
                contents.results.append(quarantine(url, id: id, reason: error.reason))
            }
        }
        let finished = Set(contents.results.map(\.id))
        contents.deadLetters = readEntries(in: dead, into: &contents.results, skipping: [])
        let deadIDs = Set(contents.deadLetters.map(\.record.id))
        contents.pending = readEntries(in: entries, into: &contents.results, skipping: finished.union(deadIDs))

        var withBodies = Set<String>()
        for entry in contents.pending + contents.deadLetters where entry.record.bodyInFile {
            withBodies.insert(entry.record.id.uuidString + ".body")
        }
        for name in Self.names(in: bodies) where !withBodies.contains(name) {
            _ = try? change { () throws(OutboxError) in try DurableFile.remove(bodies.appendingPathComponent(name)) }
        }
        contents.pending.sort { $0.record.sequence < $1.record.sequence }
        contents.deadLetters.sort { $0.record.sequence < $1.record.sequence }
        contents.results.sort { $0.finishedAt < $1.finishedAt }
        let highest = (contents.pending + contents.deadLetters).map(\.record.sequence).max() ?? 0
        contents.nextSequence = highest + 1
        return contents
    }

    /// The entry files of `folder`, those of the `skipping` identifiers removed, the damaged ones
    /// quarantined (their reports added to `reports`).
    private func readEntries(
        in folder: URL, into reports: inout [FinishedEntry], skipping: Set<UUID>
    ) -> [StoredEntry] {
        var found: [StoredEntry] = []
        for name in Self.names(in: folder) where name.hasSuffix(".entry") {
            let url = folder.appendingPathComponent(name)
            let id = EntryRecord.id(inFileName: name)
            if let id, skipping.contains(id) {
                _ = try? change { () throws(OutboxError) in try DurableFile.remove(url) }
                continue
            }
            do throws(RecordDamage) {
                let (record, _) = try read(EntryRecord.self, at: url)
                guard record.id == id, record.fileName == name else {
                    throw RecordDamage("its name does not match its contents")
                }
                var size = LocalFile.size(url) ?? 0
                if record.bodyInFile {
                    guard let bodySize = LocalFile.size(bodyFile(record.id)) else {
                        throw RecordDamage("its body file is missing")
                    }
                    size += bodySize
                }
                found.append(StoredEntry(record: record, size: size))
            } catch {
                reports.append(quarantine(url, id: id, reason: error.reason))
            }
        }
        return found
    }

    private func read<Header: Decodable>(_ type: Header.Type, at url: URL) throws(RecordDamage) -> (Header, Data) {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw RecordDamage("it cannot be read")
        }
        return try RecordFile.decode(Header.self, from: data)
    }
}
