import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The outcome of one URLSession data task.
struct FetchResult: Sendable {
    var data: Data?
    var response: HTTPURLResponse?
    var error: (any Error)?

    var status: Int { response?.statusCode ?? -1 }
    var text: String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// The body decoded as a JSON object, or an empty dictionary.
    var json: [String: Any] {
        data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
    }
}

/// A mutable value shared with callbacks; guarded by a lock.
final class Box<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}

/// A session without caches, cookies or proxies, with short timeouts.
func makeSession(maxConnections: Int = 6, timeout: TimeInterval = 5) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = maxConnections
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    configuration.urlCache = nil
    configuration.connectionProxyDictionary = [:]
    return URLSession(configuration: configuration)
}

/// Runs `request` and waits at most `timeout` seconds for it (cancelling it on timeout).
func fetch(
    _ request: URLRequest, session: URLSession, timeout: TimeInterval = 10, file: StaticString = #filePath,
    line: UInt = #line
) -> FetchResult {
    let result = Box(FetchResult())
    let done = DispatchSemaphore(value: 0)
    let task = session.dataTask(with: request) { data, response, error in
        result.set(FetchResult(data: data, response: response as? HTTPURLResponse, error: error))
        done.signal()
    }
    task.resume()
    if done.wait(timeout: .now() + timeout) == .timedOut {
        task.cancel()
        XCTFail(
            "request to \(request.url?.absoluteString ?? "?") did not finish in \(timeout)s", file: file, line: line)
        _ = done.wait(timeout: .now() + 2)
    }
    return result.get()
}

/// `fetch` for a plain GET of `url`.
func fetch(
    _ url: URL, session: URLSession, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line
)
    -> FetchResult
{
    fetch(URLRequest(url: url), session: session, timeout: timeout, file: file, line: line)
}

/// A blocking TCP client socket to 127.0.0.1 with a receive timeout, for byte-exact tests.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, receiveTimeout: TimeInterval = 3) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: .init(receiveTimeout.truncatingRemainder(dividingBy: 1) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                rawSend(fd, $0.baseAddress, $0.count)
            }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads until the peer closes (or the receive timeout / `limit` is hit).
    func readToEnd(limit: Int = 16 * 1024 * 1024) -> [UInt8] {
        while buffer.count < limit, fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// Reads until the stream ends or fails.
    /// - Returns: the bytes read, and the `errno` of the failure that ended it (`ECONNRESET` for a
    ///   reset), or `nil` for an orderly end of stream.
    func readUntilEndOrError() -> (bytes: [UInt8], error: Int32?) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            defer { buffer.removeAll() }
            return (buffer, count == 0 ? nil : errno)
        }
    }

    /// Whether the server closed the connection (end of stream) within the receive timeout.
    /// Whether the peer closed the connection: reads (and discards) until end of stream, giving up
    /// after a few receive timeouts.
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        for _ in 0..<20 {
            let count = recv(fd, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return true }  // reset: closed too
        }
        return false
    }

    /// Reads one response; the body is framed by Content-Length or chunked encoding (or, if
    /// neither, by end of stream). Returns `nil` if the stream ended or timed out first.
    func readResponse(isHead: Bool = false) -> (status: Int, headers: [String: String], body: [UInt8])? {
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        if status == 100 { return readResponse(isHead: isHead) }
        if isHead || status == 204 || status == 304 { return (status, headers, []) }
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < length, fill() {}
            guard buffer.count >= length else { return nil }
            let body = Array(buffer[..<length])
            buffer.removeFirst(length)
            return (status, headers, body)
        }
        if headers["transfer-encoding"] == "chunked" {
            var body: [UInt8] = []
            while true {
                guard let lineEnd = readUntil([13, 10]) else { return nil }
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self)
                buffer.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText, radix: 16) else { return nil }
                if size == 0 {
                    _ = readUntil([13, 10]).map { buffer.removeFirst($0 + 2) }
                    return (status, headers, body)
                }
                while buffer.count < size + 2, fill() {}
                guard buffer.count >= size + 2 else { return nil }
                body += buffer[..<size]
                buffer.removeFirst(size + 2)
            }
        }
        return (status, headers, readToEnd())
    }

    /// Reads until `pattern` is buffered; returns its index.
    private func readUntil(_ pattern: [UInt8]) -> Int? {
        while true {
            if buffer.count >= pattern.count {
                for index in 0...(buffer.count - pattern.count)
                where buffer[index..<index + pattern.count].elementsEqual(pattern) {
                    return index
                }
            }
            guard fill() else { return nil }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
}

private func rawSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(fd, pointer, count, 0)
    #endif
}

/// Seconds elapsed while running `body`.
func elapsed(_ body: () throws -> Void) rethrows -> TimeInterval {
    let start = Date()
    try body()
    return Date().timeIntervalSince(start)
}
