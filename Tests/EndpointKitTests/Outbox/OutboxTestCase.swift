import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Base class of the outbox tests: the loopback server with an ``IdempotencyLedger`` at `/apply`,
/// a fresh outbox directory per test, numbered entries, and bounded waits that keep the main queue
/// running (results are handed over there).
class OutboxTestCase: LoopbackTestCase {
    var ledger: IdempotencyLedger!
    var directory: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        ledger = IdempotencyLedger()
        ledger.install(on: server, at: "/apply")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-tests-\(UUID().uuidString)")
    }

    override func tearDown() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        ledger = nil
        super.tearDown()
    }

    /// An outbox on ``directory`` with short retry delays.
    func makeOutbox(
        client: APIClient? = nil, monitor: ConnectivityMonitor? = nil,
        _ configure: (inout Outbox.Configuration) -> Void = { _ in }
    ) throws -> Outbox {
        var configuration = Outbox.Configuration()
        configuration.initialRetryDelay = 0.05
        configuration.maximumRetryDelay = 0.5
        configuration.connectivity = monitor
        configure(&configuration)
        return try Outbox(client: client ?? self.client, directory: directory, configuration: configuration)
    }

    /// `POST /apply` with the JSON body `{"n": number}`.
    static func item(_ number: Int, path: RequestPath = "/apply") -> Endpoint<Empty> {
        Endpoint(method: .post, path: path, parameters: .json(["n": .int(number)]))
    }

    /// The numbers of the entries the server applied, in the order it applied them.
    var appliedNumbers: [Int] { ledger.applied.compactMap { Self.number(in: $0.body) } }

    static func number(in body: Data) -> Int? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["n"] as? Int
    }

    /// Runs the main queue until `condition` holds or `timeout` seconds pass; returns whether it held.
    @discardableResult
    func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        return true
    }

    /// The names of the files in a folder of ``directory``.
    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? [])
            .sorted()
    }

    /// A monitor whose status the test sets, polled every 20 ms; `probes` counts its checks.
    func makeMonitor(online: Locked<Bool>, probes: Counter = Counter()) -> ConnectivityMonitor {
        ConnectivityMonitor(pollingInterval: 0.02) {
            probes.increment()
            return online.value ? .online : .offline
        }
    }
}

/// Results collected from the outbox's closure, on the main actor.
final class ResultLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [OutboxResult] = []

    func append(_ result: OutboxResult) { lock.withLock { stored.append(result) } }
    var results: [OutboxResult] { lock.withLock { stored } }
    var ids: [OutboxEntry.ID] { results.map(\.entryID) }
}

extension OutboxResult {
    var succeeded: OutboxResponse? {
        if case .succeeded(let response) = outcome { return response }
        return nil
    }

    var deadLetterFailure: APIFailure? {
        if case .deadLettered(let failure) = outcome { return failure }
        return nil
    }
}
