#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 keep-alive client over one socket, cheap enough per request that
/// hammering the server with it measures the server, not the client.
///
/// It understands only what the benchmark server sends: a head, then a `Content-Length` body.
final class RawHTTPConnection {
    private let fd: Int32
    private var received: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects to `127.0.0.1:port`.
    init(port: UInt16) throws(BenchError) {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .server("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw .server("connect to port \(port) failed: errno \(errno)")
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Sends `request` (a whole request head) and reads one response.
    /// - Returns: the status code.
    func exchange(_ request: [UInt8]) throws(BenchError) -> Int {
        try sendAll(request)
        var headEnd = 0
        while true {
            if let end = Self.endOfHead(in: received) {
                headEnd = end
                break
            }
            try receiveMore()
        }
        let head = String(decoding: received[..<headEnd], as: UTF8.self)
        guard let status = Self.status(of: head), let length = Self.contentLength(of: head) else {
            throw .server("unexpected response head: \(head.prefix(200))")
        }
        while received.count < headEnd + length { try receiveMore() }
        received.removeFirst(headEnd + length)
        return status
    }

    private func sendAll(_ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw .server("send failed: errno \(errno)") }
            offset += sent
        }
    }

    private func receiveMore() throws(BenchError) {
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 && errno == EINTR { return }
        guard count > 0 else { throw .server("the server closed the connection") }
        received.append(contentsOf: chunk[..<count])
    }

    /// The offset just past `\r\n\r\n`, if the head is complete.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// The status code of `HTTP/1.1 200 OK`.
    static func status(of head: String) -> Int? {
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }

    /// The `Content-Length` of a head (0 when absent).
    static func contentLength(of head: String) -> Int? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-length" else { continue }
            return Int(String(pair[1].filter { $0 != " " && $0 != "\t" }))
        }
        return 0
    }
}
