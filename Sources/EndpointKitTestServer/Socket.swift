#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the BSD socket calls the server needs, hiding Glibc/Darwin differences.
///
/// Every function retries on `EINTR`; none of them traps on network input.
enum Socket {
    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// Ignores `SIGPIPE` process-wide so that writing to a closed peer returns `EPIPE` instead of
    /// killing the process (belt and braces next to `MSG_NOSIGNAL` / `SO_NOSIGPIPE`).
    static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Creates a non-blocking TCP socket listening on `127.0.0.1:port` (`0` = ephemeral).
    /// - Returns: the descriptor and the port actually bound.
    static func makeListener(port: UInt16, backlog: Int32) throws(TestServerError) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw .socketFailed(errno: errno) }
        func fail(_ error: TestServerError) -> TestServerError {
            close(fd)
            return error
        }
        guard setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1) else { throw fail(.socketOptionFailed(errno: errno)) }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw fail(.bindFailed(port: port, errno: errno)) }
        guard listen(fd, backlog) == 0 else { throw fail(.listenFailed(errno: errno)) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw fail(.addressLookupFailed(errno: errno)) }
        setBlocking(fd, false)
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Starts a non-blocking connect to `127.0.0.1:port` and returns at once.
    /// - Returns: the descriptor (connected or still connecting), or `nil` if no socket could be made.
    static func startConnecting(toPort port: UInt16) -> Int32? {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { return nil }
        setBlocking(fd, false)
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return fd
    }

    /// Accepts one pending connection and configures it (blocking, `TCP_NODELAY`, no `SIGPIPE`).
    /// - Returns: the new descriptor, or `nil` when nothing was pending or `accept` failed.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = systemAccept(listener)
            if fd >= 0 {
                setBlocking(fd, true)  // BSD sockets inherit O_NONBLOCK from the listener.
                _ = setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
                #if canImport(Darwin)
                _ = setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
                #endif
                return fd
            }
            if errno != EINTR && errno != ECONNABORTED { return nil }
        }
    }

    private static func systemAccept(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
        return Glibc.accept(listener, nil, nil)
        #else
        return Darwin.accept(listener, nil, nil)
        #endif
    }

    /// Writes all of `bytes`, looping over partial writes.
    /// - Returns: `false` if the peer went away or the socket was shut down.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(fd, pointer, remaining, sendFlags)
            if sent > 0 {
                pointer += sent
                remaining -= sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Writes all of `bytes`, looping over partial writes; `false` if the peer went away.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// Reads at most `buffer.count` bytes.
    /// - Returns: the number of bytes read; `0` on end of stream; `-1` on error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = recv(fd, base, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Shuts down both directions, waking any thread blocked in `recv`/`send`/`poll` on `fd`.
    static func shutdownBoth(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Shuts down the sending direction so the peer sees a clean end of stream.
    static func shutdownWrite(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Makes the coming `close` of `fd` abort the connection with a TCP RST (`SO_LINGER` on, 0 s)
    /// instead of an orderly FIN, discarding anything not yet sent.
    static func resetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Closes a descriptor.
    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Waits until one of `fds` is readable (or hung up) or `timeoutMilliseconds` pass (`-1` = forever).
    /// - Returns: for each descriptor whether it is readable or in an error/hang-up state; all
    ///   `false` on timeout.
    static func waitReadable(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Bool] {
        var pollFDs = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let result = poll(&pollFDs, nfds_t(pollFDs.count), timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            if result <= 0 { return Array(repeating: false, count: fds.count) }
            return pollFDs.map { $0.revents != 0 }
        }
    }

    /// Creates a pipe.
    static func makePipe() throws(TestServerError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .pipeFailed(errno: errno) }
        setBlocking(fds[1], false)
        return (fds[0], fds[1])
    }

    /// Writes one byte to a (non-blocking) descriptor, ignoring failures.
    static func writeByte(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) -> Bool {
        var value = value
        return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    static func setBlocking(_ fd: Int32, _ blocking: Bool) {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0 else { return }
        let updated = blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK
        _ = fcntl(fd, F_SETFL, updated)
    }
}
