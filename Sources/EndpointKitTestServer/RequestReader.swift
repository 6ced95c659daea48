import Foundation

/// A request read off a connection, plus what the connection needs to know to answer it.
struct ReceivedRequest {
    /// The request handed to the route handler.
    var request: TestRequest
    /// Whether the client allows the connection to be reused after the response.
    var keepAlive: Bool
    /// Whether this is an HTTP/1.0 request (no chunked responses, `Connection: keep-alive` opt-in).
    var isHTTP10: Bool
    /// Whether the method is `HEAD` (response headers only).
    var isHead: Bool
}

/// The result of trying to read the next request from a connection.
enum ReadOutcome {
    /// A complete request (head and body).
    case request(ReceivedRequest)
    /// The client closed the connection (or the server is stopping), or the stream ended
    /// mid-request: there is nobody to answer.
    case closed
    /// The request is unacceptable: answer `status` with `message`, then close.
    case reject(status: Int, message: String)
}

/// Reads HTTP/1.x requests from a blocking socket.
///
/// Bytes are accumulated in one growable buffer that is reset (keeping its capacity) after each
/// request, so the keep-alive path does no per-request allocation for the buffer, and every
/// received byte is scanned once while looking for the end of the head.
struct RequestReader {
    /// The largest accepted request head (request line plus header fields), in bytes.
    static let maxHeadBytes = 64 * 1024
    private static let maxChunkLineBytes = 4096
    private static let receiveSize = 64 * 1024

    private let fd: Int32
    private let maxBodyBytes: Int
    private var storage: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: RequestReader.receiveSize)

    init(fd: Int32, maxBodyBytes: Int) {
        self.fd = fd
        self.maxBodyBytes = maxBodyBytes
        storage.reserveCapacity(RequestReader.receiveSize)
    }

    /// Reads the next request: head, `100 Continue` if asked for, and the whole body.
    mutating func readRequest() -> ReadOutcome {
        let head: RequestHead
        switch readHead() {
        case .head(let parsed): head = parsed
        case .finished(let outcome): return outcome
        }
        let connection = head.values(of: "connection").flatMap(ASCII.lowercasedList)
        let isHTTP10 = head.minorVersion == 0
        let keepAlive = isHTTP10 ? connection.contains("keep-alive") : !connection.contains("close")

        let framing: BodyFraming
        switch Self.bodyFraming(head, maxBodyBytes: maxBodyBytes) {
        case .success(let value): framing = value
        case .failure(let error): return .reject(status: error.status, message: error.message)
        }
        let expectsContinue =
            !isHTTP10 && head.values(of: "expect").contains { ASCII.equalsIgnoringCase($0, "100-continue") }
        if expectsContinue && framing != .length(0) && start == storage.count {
            guard Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
        }

        var body = Data()
        switch framing {
        case .length(let length):
            body.reserveCapacity(min(length, 64 * 1024 * 1024))
            guard readExactly(length, into: &body) else { return .closed }
        case .chunked:
            if let failure = readChunkedBody(into: &body) { return failure }
        }
        let request = TestRequest(
            method: head.method, target: head.target, headers: head.headers, body: body, version: head.version)
        return .request(
            ReceivedRequest(request: request, keepAlive: keepAlive, isHTTP10: isHTTP10, isHead: head.method == "HEAD"))
    }

    // MARK: - Head

    private enum HeadResult {
        case head(RequestHead)
        case finished(ReadOutcome)
    }

    /// Reads and parses the next request head.
    private mutating func readHead() -> HeadResult {
        compact()
        var scanner = HeadBoundaryScanner(start: start)
        while true {
            if let (contentEnd, end) = storage.withUnsafeBufferPointer({ scanner.scan($0) }) {
                guard contentEnd - scanner.headStart <= Self.maxHeadBytes else {
                    return .finished(.reject(status: 431, message: "Request header fields too large"))
                }
                let parsed = storage.withUnsafeBufferPointer {
                    HTTPRequestParser.parseHead(UnsafeBufferPointer(rebasing: $0[scanner.headStart..<contentEnd]))
                }
                start = end
                switch parsed {
                case .success(let head):
                    return .head(head)
                case .failure(let error):
                    return .finished(.reject(status: error.status, message: error.message))
                }
            }
            if storage.count > scanner.headStart, storage[scanner.headStart] == 0x16 {
                // A TLS handshake record on this plain-HTTP port: answer in plain HTTP at once (as
                // nginx does) so a TLS client fails fast with a TLS error instead of waiting.
                return .finished(.reject(status: 400, message: "The plain HTTP port received a TLS handshake"))
            }
            guard storage.count - scanner.headStart <= Self.maxHeadBytes else {
                return .finished(.reject(status: 431, message: "Request header fields too large"))
            }
            guard fill() else { return .finished(.closed) }
        }
    }

    /// Drops consumed bytes at a request boundary. Usually the buffer is fully consumed, which
    /// makes this O(1); leftover (pipelined) bytes are moved to the front.
    private mutating func compact() {
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
        } else if start > 0 {
            storage.removeSubrange(0..<start)
        }
        start = 0
    }

    /// Inside a body, drops the consumed front of the buffer once it is at least half of it, so a
    /// long chunked body does not accumulate in `storage` (amortized linear).
    private mutating func compactInsideBody() {
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= RequestReader.receiveSize && start * 2 >= storage.count {
            storage.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Receives more bytes into `storage`. Returns `false` at end of stream or on error.
    private mutating func fill() -> Bool {
        let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        guard count > 0 else { return false }
        storage.append(contentsOf: scratch[0..<count])
        return true
    }

    // MARK: - Body

    private enum BodyFraming: Equatable {
        case length(Int)
        case chunked
    }

    private static func bodyFraming(_ head: RequestHead, maxBodyBytes: Int) -> Result<BodyFraming, HeadParseError> {
        let transferCodings = head.values(of: "transfer-encoding").flatMap(ASCII.lowercasedList)
        let lengths = head.values(of: "content-length").flatMap { $0.split(separator: ",") }.map {
            $0.trimmed(of: " \t")
        }
        if !transferCodings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(.init(status: 400, message: "Both Transfer-Encoding and Content-Length"))
            }
            guard transferCodings == ["chunked"] else {
                return .failure(.init(status: 501, message: "Unsupported Transfer-Encoding"))
            }
            return .success(.chunked)
        }
        guard let first = lengths.first else { return .success(.length(0)) }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(first)
        else { return .failure(.init(status: 400, message: "Invalid Content-Length")) }
        guard length <= maxBodyBytes else { return .failure(.init(status: 413, message: "Request body too large")) }
        return .success(.length(length))
    }

    /// Appends exactly `count` bytes to `body`: first from the buffer, then straight from the
    /// socket (never reading past the end, so the next request stays in the kernel's buffer).
    private mutating func readExactly(_ count: Int, into body: inout Data) -> Bool {
        let buffered = min(storage.count - start, count)
        if buffered > 0 {
            storage.withUnsafeBufferPointer { body.append(UnsafeBufferPointer(rebasing: $0[start..<start + buffered])) }
            start += buffered
        }
        var remaining = count - buffered
        while remaining > 0 {
            let wanted = min(remaining, scratch.count)
            let received = scratch.withUnsafeMutableBytes {
                Socket.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<wanted]))
            }
            guard received > 0 else { return false }
            scratch.withUnsafeBufferPointer { body.append(UnsafeBufferPointer(rebasing: $0[0..<received])) }
            remaining -= received
        }
        return true
    }

    /// Reads a chunked body (RFC 9112 §7.1), discarding extensions and trailers.
    /// - Returns: `nil` on success, otherwise the outcome to report.
    private mutating func readChunkedBody(into body: inout Data) -> ReadOutcome? {
        let malformed = ReadOutcome.reject(status: 400, message: "Malformed chunked body")
        while true {
            guard let line = readLine() else { return .closed }
            guard let line, let size = Self.chunkSize(line) else { return malformed }
            if size == 0 { break }
            guard size <= maxBodyBytes - body.count else {
                return .reject(status: 413, message: "Request body too large")
            }
            guard readExactly(size, into: &body) else { return .closed }
            guard let terminator = readLine() else { return .closed }
            guard terminator?.isEmpty == true else { return malformed }
        }
        var trailerBytes = 0
        while true {
            guard let line = readLine() else { return .closed }
            guard let line else { return malformed }
            if line.isEmpty { return nil }
            trailerBytes += line.count
            guard trailerBytes <= Self.maxHeadBytes else {
                return .reject(status: 431, message: "Trailer fields too large")
            }
        }
    }

    /// Reads one line (without its CRLF/LF).
    /// - Returns: `nil` at end of stream; `.some(nil)` if the line is longer than allowed.
    private mutating func readLine() -> [UInt8]?? {
        compactInsideBody()
        var searchFrom = start
        while true {
            if let lineFeed = storage[searchFrom...].firstIndex(of: ASCII.lf) {
                var end = lineFeed
                if end > start && storage[end - 1] == ASCII.cr { end -= 1 }
                let line = Array(storage[start..<end])
                start = lineFeed + 1
                return .some(line)
            }
            guard storage.count - start <= Self.maxChunkLineBytes else { return .some(nil) }
            searchFrom = storage.count
            guard fill() else { return nil }
        }
    }

    /// Parses `hex[;extensions]`; `nil` if malformed or unreasonably large.
    private static func chunkSize(_ line: [UInt8]) -> Int? {
        var size = 0
        var digits = 0
        for byte in line {
            if let value = URLEncoding.hexValue(byte) {
                guard digits < 15 else { return nil }
                size = size << 4 | Int(value)
                digits += 1
            } else if byte == UInt8(ascii: ";") || byte == ASCII.space || byte == ASCII.tab {
                break
            } else {
                return nil
            }
        }
        return digits > 0 ? size : nil
    }
}
