import Foundation

/// A one-shot, process-local "server is stopping" event that can be waited on together with a
/// socket via `poll(2)`.
///
/// It is a pipe: ``fire()`` writes one byte that is never read, so the read end stays readable
/// for every current and future waiter. The descriptors are closed in `deinit`, which only runs
/// after every thread using them has finished (each one holds a reference to its owner).
final class StopSignal: Sendable {
    /// The read end; readable once the signal has fired.
    let readFD: Int32
    private let writeFD: Int32

    init() throws(TestServerError) {
        let fds = try Socket.makePipe()
        readFD = fds.read
        writeFD = fds.write
    }

    deinit {
        Socket.closeDescriptor(readFD)
        Socket.closeDescriptor(writeFD)
    }

    /// Fires the signal, waking every waiter. Firing more than once is harmless.
    func fire() {
        Socket.writeByte(writeFD)
    }

    /// Whether the signal has fired.
    var hasFired: Bool {
        Socket.waitReadable([readFD], timeoutMilliseconds: 0)[0]
    }

    /// Sleeps for `seconds` unless the signal fires first.
    /// - Returns: `true` if the signal fired (the caller should give up), `false` after the full wait.
    func wait(seconds: TimeInterval) -> Bool {
        guard seconds > 0 else { return hasFired }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return hasFired }
            let milliseconds =
                remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            let timeout = Int32(clamping: max(1, milliseconds))
            if Socket.waitReadable([readFD], timeoutMilliseconds: timeout)[0] { return true }
        }
    }

    /// Blocks until the peer of `fd` closes or errors, or the signal fires; anything the peer
    /// sends meanwhile is read and discarded.
    func waitForDisconnect(_ fd: Int32) {
        var discard = [UInt8](repeating: 0, count: 4096)
        while true {
            let ready = Socket.waitReadable([fd, readFD], timeoutMilliseconds: -1)
            if ready[1] { return }
            if ready[0] {
                let count = discard.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
                if count <= 0 { return }
            } else {
                usleep(10_000)  // poll(2) failed; avoid spinning.
            }
        }
    }
}
