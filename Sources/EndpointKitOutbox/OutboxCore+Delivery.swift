import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension OutboxCore {
    /// What to do with an entry after an attempt.
    enum Decision: Sendable {
        /// It ended: remove it, hand the result over.
        case finished(FinishedEntry.Outcome)
        /// Keep it first in its lane and try again after `after` seconds (a backoff when `nil`),
        /// earlier when the network comes back if `wakesOnNetwork`.
        case retry(after: TimeInterval?, wakesOnNetwork: Bool)
        /// Move it to the dead letters.
        case deadLetter(APIFailure)
        /// Its file no longer passes its check.
        case damaged(String)
    }

    /// The transport failures after which an entry is sent again: the network, the server's
    /// connection, a garbled answer, an interceptor that could not adapt it (no token offline).
    static let retriedReasons: Set<TransportError.Reason> = [
        .timedOut, .notConnected, .cannotConnect, .cannotFindHost, .connectionLost, .badResponse, .other,
        .cancelled, .requestBuildFailed, .localFileError,
    ]

    /// Starts the task of lane `name`, unless it runs already.
    func startLane(_ name: String) {
        state.withLock { state in
            guard !state.stopped, let wakeup = state.lanes[name]?.wakeup, state.laneTasks[name] == nil else { return }
            state.laneTasks[name] = Task { [self] in await run(lane: name, wakeup: wakeup) }
        }
    }

    /// Sends the lane's entries one at a time, in order, until it is empty or the outbox stops.
    private func run(lane name: String, wakeup: LaneWakeup) async {
        var failures = 0
        while !Task.isCancelled {
            let next = state.withLock { state -> Entry? in
                if let first = state.lanes[name]?.entries.first { return first }
                // Empty: the lane ends here, in the same turn of the lock as the check, so that an
                // entry added from now on starts a new one.
                state.lanes[name] = nil
                state.laneTasks[name] = nil
                return nil
            }
            guard let entry = next else { return }
            if let monitor, monitor.status == .offline {
                await wakeup.wait(seconds: configuration.maximumRetryDelay, wakesOnNetwork: true)
                continue
            }
            let (decision, body) = await attempt(entry)
            if Task.isCancelled || isStopped { return }
            switch decision {
            case .finished(let outcome):
                failures = 0
                finish(entry, outcome: outcome)
            case .deadLetter(let failure):
                failures = 0
                moveToDeadLetters(entry, failure: failure, body: body)
            case .damaged(let reason):
                failures = 0
                let report = store.quarantine(store.entryFile(entry.record), id: entry.record.id, reason: reason)
                remove(entry, reporting: report)
            case .retry(let after, let wakesOnNetwork):
                failures += 1
                await wakeup.wait(seconds: after ?? backoff(after: failures), wakesOnNetwork: wakesOnNetwork)
            }
        }
    }

    /// The wait after `failures` failures in a row: doubling from the initial delay, capped, the
    /// last half randomized.
    private func backoff(after failures: Int) -> TimeInterval {
        let nominal = configuration.initialRetryDelay * pow(2, Double(min(failures, 40) - 1))
        return min(configuration.maximumRetryDelay, nominal) * Double.random(in: 0.5...1)
    }

    /// Sends an entry once; returns what to do with it, and its body bytes (for a dead letter).
    private func attempt(_ entry: Entry) async -> (Decision, Data) {
        let body: (data: Data?, file: URL?)
        do {
            body = try store.body(of: entry.record, in: store.entries)
        } catch {
            return (.damaged(error.reason), Data())
        }
        guard let urlRequest = entry.record.urlRequest(body: body.data) else {
            return (.damaged("its URL is not valid"), Data())
        }
        let request = OutboxRequest(record: entry.record, urlRequest: urlRequest, bodyFile: body.file)
        return (decide(await client.send(request)), body.data ?? Data())
    }

    /// What an attempt's result means for the entry.
    func decide(_ result: APIResult<Empty>) -> Decision {
        switch result {
        case .success(_, let metadata):
            return .finished(.succeeded(metadata))
        case .serverFailure(let failure) where failure.kind == .businessStatus:
            return .finished(.failedOnServer(failure))
        case .serverFailure(let failure) where configuration.retriedStatusCodes.contains(failure.statusCode):
            let asked = failure.metadata.header("Retry-After").flatMap { RetryPolicy.parseRetryAfter($0, now: Date()) }
            return .retry(after: asked, wakesOnNetwork: false)
        case .serverFailure(let failure):
            return .deadLetter(.server(failure))
        case .transportError(let error) where Self.retriedReasons.contains(error.reason):
            return .retry(after: nil, wakesOnNetwork: true)
        case .transportError(let error):
            return .deadLetter(.transport(error))
        }
    }

    /// Ends an entry: its result on disk, its files removed, the result handed over.
    private func finish(_ entry: Entry, outcome: FinishedEntry.Outcome) {
        let result = FinishedEntry(id: entry.record.id, kind: entry.record.kind, outcome: outcome)
        store.finish(entry.record, with: result)
        remove(entry, reporting: result)
    }

    /// Takes an entry out of its lane and hands its result over.
    private func remove(_ entry: Entry, reporting result: FinishedEntry) {
        state.withLock { state in
            state.lanes[entry.record.lane]?.entries.removeAll { $0.record.id == entry.record.id }
            state.bytes -= entry.stored.size
        }
        dispatcher.deliver(result)
    }

    private func moveToDeadLetters(_ entry: Entry, failure: APIFailure, body: Data) {
        var dead = entry
        dead.stored.record.deadLetter = StoredFailure(failure)
        let result = FinishedEntry(id: entry.record.id, kind: entry.record.kind, outcome: .deadLettered(failure))
        do {
            try store.moveToDeadLetters(dead.record, body: entry.record.bodyInFile ? Data() : body, result: result)
            dead.folder = .dead
        } catch {
            // Kept where it is on disk: a relaunch sends it again, and the server refuses it again.
        }
        state.withLock { state in
            state.lanes[entry.record.lane]?.entries.removeAll { $0.record.id == entry.record.id }
            state.deadLetters.append(dead)
            state.deadLetters.sort { $0.record.sequence < $1.record.sequence }
        }
        dispatcher.deliver(result)
    }
}
