#if os(Linux) && canImport(CCurlShim)
import CCurlShim
import Foundation
import Synchronization

/// One thread driving one libcurl multi handle for a ``CurlTransport``.
///
/// Every transfer runs on this thread: connections are reused across transfers (HTTP/1.1
/// keep-alive, HTTP/2 multiplexing), and no lock is taken per byte. Other threads only hand
/// transfers in and out through the inbox and wake the loop with `curl_multi_wakeup`.
///
/// The loop is also a `TaskExecutor` (``CurlTransport/executor``): jobs of tasks that prefer it
/// run on this thread between rounds of transfers.
final class CurlEventLoop: TaskExecutor, @unchecked Sendable {
    private struct Inbox {
        var added: [CurlTransfer] = []
        var discarded: [CurlTransfer] = []
        var jobs: [UnownedJob] = []
        /// Transfers whose body sink asked to read again.
        var resumed: [CurlTransfer] = []
        var stopping = false
        var stopped = false
        /// Whether the loop is waiting (or about to) in `curl_multi_poll` and needs a wake-up.
        var isWaiting = false
    }

    /// An easy handle with its error buffer, kept for the next transfer. Used by one thread at a
    /// time: the transfer that holds it, or the pool.
    struct Handle: @unchecked Sendable {
        /// What a handle's options were last set for.
        enum Options: Equatable {
            /// Never used, or reset since: libcurl's defaults.
            case fresh
            /// Set for a request of another kind (a body, a download, a client certificate...):
            /// reset before the next one.
            case unknown
            /// Set for a plain GET (no body, no file, no stream) over http or https: the next
            /// plain GET of the same scheme sets only what differs from one request to the next.
            case plainGet(https: Bool)
        }

        let easy: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
        var options = Options.fresh

        /// Frees the handle (it must be in no multi handle).
        func free() {
            ek_curl_easy_cleanup(easy)
            errorBuffer.deallocate()
        }
    }

    /// The most idle easy handles kept: reusing one costs about half of `curl_easy_init` +
    /// `curl_easy_cleanup` (nothing for a plain GET after a plain GET, see ``Handle/Options``),
    /// and its TLS session cache survives.
    private static let idleHandleLimit = 32

    private let multi: UnsafeMutableRawPointer
    // Locks are `Locked` (pthread mutexes), not Synchronization's `Mutex`: ThreadSanitizer does
    // not see `Mutex`'s futex-based ordering on Linux and reports races that are not there.
    private let inbox = Locked(Inbox())
    private let liveTransfers = Atomic(0)
    private let idleHandles = Locked<[Handle]>([])
    /// Transfers whose handle is in the multi handle, by handle. Loop thread only, so without
    /// dynamic exclusivity checks (like the loop's other state below).
    @exclusivity(unchecked) private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// The loop thread's id, set when it starts.
    private let threadID = Locked<pthread_t?>(nil)

    /// Creates the multi handle and starts the thread.
    /// - Throws: ``TransportConfigurationError/libraryUnavailable(_:)`` if libcurl fails.
    init() throws(TransportConfigurationError) {
        guard let multi = ek_curl_multi_init() else { throw .libraryUnavailable("curl_multi_init failed") }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "EndpointKit.CurlTransport"
        thread.start()
    }

    deinit {
        for handle in idleHandles.withLock({ $0 }) { handle.free() }
    }

    /// Transfers created and not yet freed (handles alive).
    var liveTransferCount: Int { liveTransfers.load(ordering: .relaxed) }

    /// An idle handle (with the options of its last request, see ``Handle/Options``), or a new
    /// one; `nil` if libcurl cannot make one.
    func acquireHandle() -> Handle? {
        let handle: Handle
        if let idle = idleHandles.withLock({ $0.popLast() }) {
            handle = idle
        } else {
            guard let easy = ek_curl_easy_init() else { return nil }
            handle = Handle(easy: easy, errorBuffer: .allocate(capacity: 256))
        }
        handle.errorBuffer[0] = 0
        liveTransfers.add(1, ordering: .relaxed)
        return handle
    }

    /// Takes back a handle that is in no multi handle, for a later transfer; its `options` say
    /// what its options were last set for.
    func recycle(_ handle: Handle) {
        liveTransfers.subtract(1, ordering: .relaxed)
        let kept = idleHandles.withLock { idle -> Bool in
            guard idle.count < Self.idleHandleLimit, CurlLibrary.reusesHandlesSafely else { return false }
            idle.append(handle)
            return true
        }
        if !kept { handle.free() }
    }

    /// Hands a configured transfer to the loop.
    /// - Returns: `false` if the loop has stopped.
    func submit(_ transfer: CurlTransfer) -> Bool {
        post { $0.added.append(transfer) }
    }

    /// Asks the loop to remove a finished (cancelled) transfer's handle.
    func discard(_ transfer: CurlTransfer) {
        post { $0.discarded.append(transfer) }
    }

    /// Asks the loop to resume a transfer its body sink paused.
    func resume(_ transfer: CurlTransfer) {
        post { $0.resumed.append(transfer) }
    }

    /// Stops the loop: unfinished transfers complete with `cancelled`, connections close.
    func stop() {
        post { $0.stopping = true }
    }

    /// Changes the inbox and wakes the loop if it is waiting. A loop that is running reads the
    /// inbox before it waits again, so it needs no wake-up (a write to libcurl's socket pair).
    @discardableResult
    private func post(_ change: (inout Inbox) -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopped else { return false }
            change(&inbox)
            // Under the lock: the multi handle is only cleaned up after `stopped` is set.
            if inbox.isWaiting {
                inbox.isWaiting = false
                _ = ek_curl_multi_wakeup(multi)
            }
            return true
        }
    }

    /// Whether the loop's thread has not yet finished (it ends after ``stop()``).
    var isRunning: Bool { !hasEnded.load(ordering: .acquiring) }
    private let hasEnded = Atomic(false)

    /// Whether the calling code runs on the loop's thread.
    var isCurrentThread: Bool {
        guard let loopThread = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(loopThread, pthread_self()) != 0
    }

    private func run() {
        threadID.withLock { $0 = pthread_self() }
        ek_curl_block_sigpipe_in_this_thread()
        var mayWait = false
        // Swapped with the inbox's list each round and emptied keeping its buffer, so a submit
        // appends without allocating.
        var added: [CurlTransfer] = []
        while true {
            if mayWait {
                // Marked as waiting under the lock with nothing left to do: a post from now on
                // wakes this poll (a curl_multi_wakeup is remembered until the next poll).
                // While transfers run, a quarter second at most, so that the idle sweep runs.
                _ = ek_curl_multi_poll(multi, active.isEmpty ? 1000 : Int32(Self.idleSweepInterval / 1_000_000))
                inbox.withLock { $0.isWaiting = false }
            }
            let work = inbox.withLock { inbox in
                swap(&inbox.added, &added)
                defer {
                    if !inbox.discarded.isEmpty { inbox.discarded = [] }
                    if !inbox.jobs.isEmpty { inbox.jobs = [] }
                    if !inbox.resumed.isEmpty { inbox.resumed = [] }
                }
                return (discarded: inbox.discarded, jobs: inbox.jobs, resumed: inbox.resumed, stopping: inbox.stopping)
            }
            for transfer in added { add(transfer) }
            added.removeAll(keepingCapacity: true)
            for transfer in work.discarded { remove(transfer) }
            for transfer in work.resumed where active[transfer.easy] === transfer { transfer.resumeStream() }
            if work.stopping {
                shutDown(pendingJobs: work.jobs)
                return
            }
            if !work.jobs.isEmpty {
                for job in work.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
                // What the jobs sent goes out in this round.
                let sent = inbox.withLock { inbox in
                    defer { inbox.added = [] }
                    return inbox.added
                }
                for transfer in sent { add(transfer) }
            }
            var running: Int32 = 0
            _ = ek_curl_multi_perform(multi, &running)
            var easy: UnsafeMutableRawPointer?
            var code: Int32 = 0
            while ek_curl_multi_next_done(multi, &easy, &code) == 1, let handle = easy {
                complete(handle, code: code)
            }
            sweepIdleTransfers()
            // Work that arrived meanwhile is taken at once; otherwise wait for sockets or a post.
            mayWait = inbox.withLock { inbox in
                guard inbox.added.isEmpty, inbox.discarded.isEmpty, inbox.jobs.isEmpty, inbox.resumed.isEmpty,
                    !inbox.stopping
                else {
                    return false
                }
                inbox.isWaiting = true
                return true
            }
        }
    }

    /// How often the loop asks its transfers whether they have been silent too long.
    private static let idleSweepInterval: UInt64 = 250_000_000
    /// When the loop last did. Loop thread only.
    @exclusivity(unchecked) private var lastIdleSweep: UInt64 = 0

    /// Ends, with their idle-limit failure, the transfers that moved no byte for their idle limit
    /// (at most every ``idleSweepInterval``).
    private func sweepIdleTransfers() {
        guard !active.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now &- lastIdleSweep >= Self.idleSweepInterval else { return }
        lastIdleSweep = now
        for transfer in active.values {
            guard let failure = transfer.idleFailure(at: now) else { continue }
            remove(transfer)
            transfer.finish(.failure(failure))
        }
    }

    private func add(_ transfer: CurlTransfer) {
        guard !transfer.isFinished else {
            transfer.release()
            return
        }
        let code = ek_curl_multi_add_handle(multi, transfer.easy)
        guard code == 0 else {
            transfer.release()
            transfer.finish(.failure(TransportError(.other, message: "curl_multi_add_handle failed (\(code)).")))
            return
        }
        active[transfer.easy] = transfer
    }

    private func remove(_ transfer: CurlTransfer) {
        // Identity, not just the address: a handle already freed may share its address with a new one.
        guard active[transfer.easy] === transfer else { return }
        active[transfer.easy] = nil
        _ = ek_curl_multi_remove_handle(multi, transfer.easy)
        transfer.release()
    }

    private func complete(_ easy: UnsafeMutableRawPointer, code: Int32) {
        guard let transfer = active.removeValue(forKey: easy) else { return }
        _ = ek_curl_multi_remove_handle(multi, easy)
        if transfer.isFinished {
            transfer.release()
            return
        }
        switch transfer.step(after: code) {
        case .finish(let result):
            transfer.release()
            transfer.finish(result)
        case .follow(let next):
            transfer.prepareForNextHop(next)
            if let error = transfer.configure() {
                transfer.release()
                transfer.finish(.failure(error))
            } else {
                add(transfer)
            }
        }
    }

    /// Cancels what is left, runs the jobs still queued here (later ones go to a global queue),
    /// and frees the multi handle.
    private func shutDown(pendingJobs: [UnownedJob]) {
        for transfer in active.values {
            _ = ek_curl_multi_remove_handle(multi, transfer.easy)
            transfer.release()
            transfer.finish(.failure(.cancelled()))
        }
        active.removeAll()
        let leftovers = inbox.withLock { inbox in
            inbox.stopped = true
            defer {
                inbox.added.removeAll()
                inbox.jobs.removeAll()
            }
            return (transfers: inbox.added, jobs: inbox.jobs)
        }
        for transfer in leftovers.transfers {
            transfer.release()
            transfer.finish(.failure(.cancelled()))
        }
        for job in pendingJobs + leftovers.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        _ = ek_curl_multi_cleanup(multi)
        hasEnded.store(true, ordering: .releasing)
    }

    /// Runs `job` on the loop's thread, between rounds of transfers; once the loop has stopped,
    /// on a global queue, so that a task preferring this executor never waits forever.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard !post({ $0.jobs.append(job) }) else { return }
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
#endif
