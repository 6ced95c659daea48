import BenchTestServer
import Dispatch
import EndpointKit
import Foundation

/// Runs a soak: many requests with a fixed number in flight over one client, with the faults,
/// cancels and timeouts of a ``SoakPlan``; then checks what the client left behind.
enum SoakRunner {
    /// What one drive of a client produced.
    private struct Drive {
        let ledger: SoakLedger
        let sent: Int
        let clientInFlight: Int
        let transportActive: Int?
    }

    /// Runs `settings`, blocking the calling thread until done. Completions run on a private
    /// queue, so any thread may call it, the main thread included.
    /// - Throws: ``BenchError`` if the transport cannot be created.
    static func run(_ settings: SoakSettings) throws(BenchError) -> SoakReport {
        // The impairer is made before the start is measured, so its listener is not growth.
        let impairer = try settings.link.map { profile throws(BenchError) in try makeImpairer(profile, settings) }
        defer { impairer?.stop() }
        let baseURL = impairer?.baseURL ?? settings.baseURL
        // A warm-up client of its own, gone before the start is measured: one-time state
        // (libcurl's and FoundationNetworking's globals, Dispatch's threads, type metadata) is
        // not growth.
        _ = try drive(settings, baseURL: baseURL, seed: ~settings.seed, requests: settings.warmupRequests)
        let fileDescriptorsBefore = settledFileDescriptorCount(
            target: 0, slack: Int(Int32.max), within: settings.settleLimit)
        ProcessMemory.resetPeak()
        let residentBefore = ProcessMemory.currentKiB()
        let linkBefore = impairer?.statistics

        let stopwatch = Stopwatch()
        let drive = try drive(settings, baseURL: baseURL, seed: settings.seed, requests: settings.requests)
        let wallSeconds = stopwatch.wallSeconds
        let link = impairer.flatMap { impairer in
            linkBefore.map {
                SoakLink(profile: impairer.profile, statistics: SoakLink.difference(impairer.statistics, $0))
            }
        }
        let peak = ProcessMemory.peakKiB()

        let fileDescriptorsAfter = settledFileDescriptorCount(
            target: fileDescriptorsBefore ?? 0, slack: settings.fileDescriptorTolerance, within: settings.settleLimit)
        ProcessMemory.resetPeak()
        let residentAfter = ProcessMemory.currentKiB()
        return SoakReport(
            settings: settings, sent: drive.sent, completions: drive.ledger.completions,
            completedRequests: drive.ledger.completedRequests, missing: drive.ledger.missing(sent: drive.sent),
            duplicates: drive.ledger.duplicates, outcomes: drive.ledger.outcomes, unexpected: drive.ledger.unexpected,
            unexpectedExamples: drive.ledger.unexpectedExamples,
            clientInFlight: drive.clientInFlight, transportActive: drive.transportActive,
            fileDescriptors: (fileDescriptorsBefore, fileDescriptorsAfter),
            residentKiB: (residentBefore, residentAfter, peak), wallSeconds: wallSeconds, link: link,
            attributed: drive.ledger.attributed)
    }

    /// A ``LinkImpairer`` with `profile` in front of the soak's server, seeded with the soak's seed.
    private static func makeImpairer(
        _ profile: LinkProfile, _ settings: SoakSettings
    ) throws(BenchError)
        -> LinkImpairer
    {
        guard let port = settings.baseURL.port.flatMap({ UInt16(exactly: $0) }) else {
            throw .server("the soak's server URL \(settings.baseURL) has no port")
        }
        do {
            return try LinkImpairer(upstreamPort: port, profile: profile, seed: settings.seed)
        } catch {
            throw .server("the link impairer could not start: \(error)")
        }
    }

    /// Sends `requests` requests of the plan of `seed` through a new client, `inFlight` at a
    /// time, waits for their completions and for the client's and the transport's registries to
    /// empty. The client and its transport are released on return.
    private static func drive(
        _ settings: SoakSettings, baseURL: URL, seed: UInt64, requests: Int
    ) throws(BenchError)
        -> Drive
    {
        let transport = try settings.transport.make(connections: settings.inFlight)
        var configuration = APIClient.Configuration(baseURL: baseURL, transport: transport)
        configuration.timeouts.total = settings.requestTimeout
        let client = APIClient(configuration: configuration)

        let ledger = SoakLedger(requests: requests, linkOutcomes: settings.link.map(SoakLink.outcomes) ?? [])
        // Created empty and then filled: libdispatch traps when a semaphore is freed holding less
        // than its initial value, which is how this one ends (every slot taken back).
        let window = DispatchSemaphore(value: 0)
        for _ in 0..<settings.inFlight { window.signal() }
        let cancels = DispatchQueue(label: "EndpointKitBench.soak.cancels", attributes: .concurrent)
        // Completions off the main actor: this thread waits for free slots.
        let callbacks = DispatchQueue(label: "EndpointKitBench.soak.callbacks")
        var plan = SoakPlan(seed: seed)
        var sent = 0
        var stuck = false
        let end = settings.timeLimit.map { DispatchTime.now() + $0 } ?? .distantFuture
        func nextSlot() -> Bool { window.wait(timeout: min(.now() + settings.stallLimit, end)) == .success }
        for index in 0..<requests {
            guard nextSlot() else {
                stuck = true
                break
            }
            let step = plan.step(index)
            let handle = client.send(step.request, on: callbacks) { result in
                // Only a first completion frees a slot: a duplicate must not let more requests in.
                if ledger.record(step, SoakOutcome(result), detail: result.failure.map { "\($0)" } ?? "success") {
                    window.signal()
                }
            }
            sent += 1
            switch step.cancelAfter {
            case nil: break
            case 0?: handle.cancel()
            case let delay?: cancels.asyncAfter(deadline: .now() + delay) { handle.cancel() }
            }
        }
        // Every slot back means every request sent has completed.
        for _ in 0..<settings.inFlight where !stuck {
            stuck = !nextSlot()
        }
        let deadline = Date(timeIntervalSinceNow: settings.settleLimit)
        func registries() -> (client: Int, transport: Int?) {
            (client.inFlightRequests.count, SoakTransport.activeTransfers(of: transport))
        }
        var left = registries()
        while left.client > 0 || (left.transport ?? 0) > 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            left = registries()
        }
        return Drive(ledger: ledger, sent: sent, clientInFlight: left.client, transportActive: left.transport)
    }

    /// The descriptor count once connections of a released client have closed on both ends: at
    /// most `target`, or unchanged for a second while at most `target + slack`, or after `seconds`.
    private static func settledFileDescriptorCount(target: Int, slack: Int, within seconds: TimeInterval) -> Int? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var last = OpenFileDescriptors.count()
        var unchanged = 0
        while let count = last, count > target, unchanged < 10 || count > target + slack, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let next = OpenFileDescriptors.count()
            unchanged = next == last ? unchanged + 1 : 0
            last = next
        }
        return last
    }
}
