import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an ``Outbox`` does, apart from the object the app holds: the entries in memory, the lanes
/// sending them, the store on disk and the results on their way. The lanes' tasks hold this, not
/// the ``Outbox``, so releasing the outbox stops them (``stop()``).
final class OutboxCore: Sendable {
    /// Where an entry's file is.
    enum Folder: Sendable {
        case entries, dead
    }

    struct Entry: Sendable {
        var stored: StoredEntry
        var folder: Folder
        var record: EntryRecord { stored.record }
    }

    struct Lane: Sendable {
        var entries: [Entry] = []
        let wakeup = LaneWakeup()
    }

    struct State {
        var lanes: [String: Lane] = [:]
        var deadLetters: [Entry] = []
        var nextSequence: UInt64 = 1
        var bytes: Int64 = 0
        var stopped = false
        /// The task of each lane that has entries; it ends when its lane is empty.
        var laneTasks: [String: Task<Void, Never>] = [:]
        /// The task that tells the lanes when the network is back.
        var watch: Task<Void, Never>?

        var count: Int { lanes.values.reduce(deadLetters.count) { $0 + $1.entries.count } }
    }

    let client: APIClient
    let store: OutboxStore
    let configuration: Outbox.Configuration
    let dispatcher: ResultDispatcher
    let monitor: ConnectivityMonitor?
    let state = Locked(State())
    /// Held from an enqueue's limit check to its entry joining its lane, so that entries join in
    /// the order of their sequence numbers.
    private let enqueueing = Locked(())

    init(client: APIClient, directory: URL, configuration: Outbox.Configuration) throws(OutboxError) {
        self.client = client
        self.configuration = configuration
        monitor = configuration.connectivity ?? client.configuration.connectivity
        let store = try OutboxStore(directory: directory)
        self.store = store
        let removals = DispatchQueue(label: "EndpointKit.Outbox.results")
        dispatcher = ResultDispatcher(client: client) { id in removals.async { store.removeResult(id) } }
        let contents = store.load()
        state.withLock { state in
            state.nextSequence = contents.nextSequence
            for stored in contents.pending {
                var stored = stored
                stored.record.deadLetter = nil
                state.lanes[stored.record.lane, default: Lane()].entries.append(Entry(stored: stored, folder: .entries))
            }
            state.deadLetters = contents.deadLetters.map { Entry(stored: $0, folder: .dead) }
            state.bytes = (contents.pending + contents.deadLetters).reduce(0) { $0 + $1.size }
        }
        for result in contents.results { dispatcher.deliver(result) }
    }

    /// Starts the lanes and the watch on the network.
    func start() {
        let names = state.withLock { Array($0.lanes.keys) }
        for name in names { startLane(name) }
        guard let monitor else { return }
        let watch = Task { [weak self] in
            for await status in monitor.updates where status == .online {
                guard let self else { return }
                for lane in state.withLock({ Array($0.lanes.values) }) { lane.wakeup.networkIsBack() }
            }
        }
        state.withLock { $0.watch = watch }
    }

    /// Stops the lanes (a send in flight is cancelled and stays waiting), ends the result
    /// iterations and releases the directory.
    func stop() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.stopped = true
            return Array(state.laneTasks.values) + [state.watch].compactMap { $0 }
        }
        for task in tasks { task.cancel() }
        dispatcher.stop()
        store.close()
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: - Enqueue

    func enqueue<Request: APIRequest>(_ request: Request, kind: String, lane: String) throws(OutboxError) -> UUID {
        let built: URLRequestBuilder.Built
        do {
            built = try client.builder.makeRequest(for: request)
        } catch {
            throw .requestBuildFailed(error)
        }
        defer { for file in built.temporaryFiles { try? FileManager.default.removeItem(at: file) } }
        let id = UUID()
        let ownKey = built.urlRequest.value(forHTTPHeaderField: Outbox.idempotencyKeyHeader)
        let key =
            ownKey.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? id.uuidString.lowercased()
        let body = built.urlRequest.httpBody ?? Data()
        let bodySize = built.bodyFile.map { LocalFile.size($0) ?? 0 } ?? Int64(body.count)
        let timeouts = (request.connectTimeout, request.idleTimeout, request.totalTimeout)

        let outcome = enqueueing.withLock { _ -> Result<Void, OutboxError> in
            do throws(OutboxError) {
                let sequence = try admit(estimatedSize: bodySize + 4096)
                var urlRequest = built.urlRequest
                urlRequest.httpBody = nil
                let record = EntryRecord(
                    id: id, sequence: sequence, lane: lane, kind: kind, idempotencyKey: key, urlRequest: urlRequest,
                    timeouts: timeouts, bodyInFile: built.bodyFile != nil)
                let size = try store.add(record, body: built.bodyFile == nil ? body : Data(), bodyFile: built.bodyFile)
                state.withLock { state in
                    state.bytes += size
                    state.lanes[lane, default: Lane()].entries.append(
                        Entry(stored: StoredEntry(record: record, size: size), folder: .entries))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
        startLane(lane)
        return id
    }

    /// Checks the limits for an entry of about `estimatedSize` bytes; returns its sequence number.
    private func admit(estimatedSize: Int64) throws(OutboxError) -> UInt64 {
        let outcome = state.withLock { state -> Result<UInt64, OutboxError> in
            guard state.count < configuration.maximumEntries else {
                return .failure(.entryLimitReached(configuration.maximumEntries))
            }
            guard state.bytes + estimatedSize <= configuration.maximumBytes else {
                return .failure(.byteLimitReached(configuration.maximumBytes))
            }
            defer { state.nextSequence += 1 }
            return .success(state.nextSequence)
        }
        return try outcome.get()
    }

    // MARK: - What the app sees

    var pending: [OutboxEntry] {
        state.withLock { state in
            state.lanes.values.flatMap(\.entries).sorted { $0.record.sequence < $1.record.sequence }
        }.map { OutboxEntry($0.record) }
    }

    var deadLetters: [OutboxEntry] { state.withLock { $0.deadLetters }.map { OutboxEntry($0.record) } }

    /// Puts a dead letter back at its place in its lane.
    func retry(_ id: UUID) throws(OutboxError) {
        guard let entry = state.withLock({ $0.deadLetters.first { $0.record.id == id } }) else {
            throw .noSuchEntry(OutboxEntry.ID(id))
        }
        dispatcher.withdraw(id)
        store.removeResult(id)
        if entry.folder == .dead { try store.revive(entry.record) }
        var revived = entry
        revived.folder = .entries
        revived.stored.record.deadLetter = nil
        let lane = entry.record.lane
        state.withLock { state in
            state.deadLetters.removeAll { $0.record.id == id }
            var entries = state.lanes[lane, default: Lane()].entries
            entries.insert(
                revived, at: entries.firstIndex { $0.record.sequence > revived.record.sequence } ?? entries.endIndex)
            state.lanes[lane, default: Lane()].entries = entries
        }
        startLane(lane)
    }

    /// Removes a dead letter for good.
    func discard(_ id: UUID) throws(OutboxError) {
        guard let entry = state.withLock({ $0.deadLetters.first { $0.record.id == id } }) else {
            throw .noSuchEntry(OutboxEntry.ID(id))
        }
        dispatcher.withdraw(id)
        store.removeResult(id)
        switch entry.folder {
        case .dead: try store.discard(entry.record)
        case .entries:
            _ = try store.change { () throws(OutboxError) in
                try DurableFile.remove(store.entryFile(entry.record))
                if entry.record.bodyInFile { try? DurableFile.remove(store.bodyFile(id)) }
            }
        }
        state.withLock { state in
            state.deadLetters.removeAll { $0.record.id == id }
            state.bytes -= entry.stored.size
        }
    }
}
