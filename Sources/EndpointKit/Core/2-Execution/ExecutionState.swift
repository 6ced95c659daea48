import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a send changes as it goes, under its handle's lock (``RequestHandle/Storage``). Outside the
/// generic class, so that its copies and destruction are plain code rather than run-time lookups
/// for each endpoint type.
struct ExecutionState {
    var attempt = 0
    var failures: [APIFailure] = []
    var timer: WaitTimer?
    var asyncPhase: Task<Void, Never>?
    var temporaryFiles: [URL] = []
    /// Whether the send completed and removed its temporary files: files a build still in
    /// progress makes afterwards are removed by the build itself.
    var releasedFiles = false
    /// The request of the last attempt sent, for an answer given in place of a failure.
    var lastRequest: URLRequest?

    /// Takes the wait and the asynchronous phase in progress, to be stopped outside the lock.
    mutating func takeWaits() -> TakenWaits {
        defer {
            timer = nil
            asyncPhase = nil
        }
        return TakenWaits(timer: timer, asyncPhase: asyncPhase)
    }
}

/// A send's wait and asynchronous phase, taken from its state under the lock.
struct TakenWaits {
    let timer: WaitTimer?
    let asyncPhase: Task<Void, Never>?

    /// Stops both; called once the lock they were taken under is released.
    func stop() {
        timer?.cancel()
        asyncPhase?.cancel()
    }
}
