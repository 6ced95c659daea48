#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The non-blocking socket calls of a ``LinkImpairer``: connecting to the server it forwards to,
/// writing what the socket takes, and polling for several events at once.
extension Socket {
    /// What a non-blocking write did.
    enum WriteResult: Equatable {
        /// This many bytes (at least one) went out.
        case sent(Int)
        /// The socket's buffer is full; try again when it is writable.
        case wouldBlock
        /// The peer is gone (reset, or closed and then written to).
        case failed
    }

    /// Connects to `127.0.0.1:port`, waiting at most `timeoutMilliseconds`.
    /// - Returns: the connected descriptor, non-blocking and ready to forward; `nil` if the port
    ///   refused or did not answer in time.
    static func openConnection(toPort port: UInt16, timeoutMilliseconds: Int32) -> Int32? {
        guard let fd = startConnecting(toPort: port) else { return nil }
        let ready = waitForEvents([(fd, Int16(POLLOUT))], timeoutMilliseconds: timeoutMilliseconds)[0] != 0
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard ready, getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else {
            closeDescriptor(fd)
            return nil
        }
        prepareForForwarding(fd)
        return fd
    }

    /// Makes `fd` non-blocking, with `TCP_NODELAY` (each write leaves as its own segment) and
    /// without `SIGPIPE`.
    static func prepareForForwarding(_ fd: Int32) {
        setBlocking(fd, false)
        _ = setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
        _ = setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
    }

    /// Writes at most `count` bytes from `pointer` to a non-blocking socket.
    static func sendSome(_ fd: Int32, _ pointer: UnsafeRawPointer, count: Int) -> WriteResult {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        while true {
            let sent = send(fd, pointer, count, flags)
            if sent > 0 { return .sent(sent) }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .failed
        }
    }

    /// Whether the peer of a non-blocking socket has closed it or reset it, without consuming
    /// anything it sent.
    static func peerHasClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, Int32(MSG_PEEK))
            if count < 0 && errno == EINTR { continue }
            return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// Shuts down the receiving direction: sends nothing to the peer, but wakes a thread polling
    /// `fd` (`recv` returns end of stream).
    static func shutdownRead(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RD))
    }

    /// Waits for `events` on each descriptor (a descriptor of `-1` is ignored), at most
    /// `timeoutMilliseconds`.
    /// - Returns: the events that occurred, per descriptor; all zero on timeout.
    static func waitForEvents(_ entries: [(fd: Int32, events: Int16)], timeoutMilliseconds: Int32) -> [Int16] {
        var pollFDs = entries.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        while true {
            let result = systemPoll(&pollFDs, timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { return Array(repeating: 0, count: entries.count) }
            return pollFDs.map(\.revents)
        }
    }

    private static func systemPoll(_ descriptors: inout [pollfd], _ timeout: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout)
        #else
        return Darwin.poll(&descriptors, nfds_t(descriptors.count), timeout)
        #endif
    }
}
