#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request line and header fields of one HTTP request.
struct RequestHead {
    /// The method token, as sent.
    var method: String
    /// The raw request target.
    var target: String
    /// The minor version of `HTTP/1.x` (`0` or `1`).
    var minorVersion: Int
    /// The header fields in order.
    var headers: [(name: String, value: String)]

    /// `"HTTP/1.<minor>"`.
    var version: String { "HTTP/1.\(minorVersion)" }

    /// The values of every field named `name` (lowercase ASCII expected), in order.
    func values(of name: String) -> [String] {
        headers.compactMap { ASCII.equalsIgnoringCase($0.name, name) ? $0.value : nil }
    }
}

/// Why a request head could not be parsed; maps to the error status sent before closing.
struct HeadParseError: Error {
    /// The HTTP status to answer with (400 or 505).
    var status: Int
    /// A short explanation, sent as the plain-text body.
    var message: String
}

/// Finds the end of a request head (the first empty line) incrementally, so that bytes already
/// looked at are never scanned again when more data arrives.
///
/// Lines may end in CRLF or a bare LF. Empty lines before the request line are skipped, as
/// RFC 9112 §2.2 recommends. Offsets are indices into the caller's buffer.
struct HeadBoundaryScanner {
    /// Where the head starts (after any skipped leading empty lines).
    private(set) var headStart: Int
    private var lineStart: Int
    private var position: Int

    init(start: Int) {
        headStart = start
        lineStart = start
        position = start
    }

    /// Continues scanning `buffer` from where the previous call stopped.
    /// - Returns: `contentEnd` (where the terminating empty line starts, i.e. the end of the last
    ///   header line including its line break) and `end` (just past the empty line), or `nil` if
    ///   the head is not complete yet.
    mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> (contentEnd: Int, end: Int)? {
        guard let base = buffer.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        while position < buffer.count {
            guard let found = memchr(raw + position, Int32(ASCII.lf), buffer.count - position) else {
                position = buffer.count
                return nil
            }
            let lineFeed = raw.distance(to: UnsafeRawPointer(found))
            var lineEnd = lineFeed
            if lineEnd > lineStart && buffer[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
            position = lineFeed + 1
            if lineEnd == lineStart {
                if lineStart == headStart {
                    headStart = position  // leading empty line: ignore it
                    lineStart = position
                    continue
                }
                return (lineStart, position)
            }
            lineStart = position
        }
        return nil
    }
}

/// Parses a complete request head into a ``RequestHead``.
enum HTTPRequestParser {
    typealias Bytes = UnsafeBufferPointer<UInt8>
    typealias HeaderField = (name: String, value: String)

    /// Parses the request line and header lines in `bytes` (each line ending in CRLF or LF,
    /// without the terminating empty line).
    static func parseHead(_ bytes: Bytes) -> Result<RequestHead, HeadParseError> {
        var lines: [Range<Int>] = []
        var lineStart = 0
        for index in 0..<bytes.count where bytes[index] == ASCII.lf {
            var end = index
            if end > lineStart && bytes[end - 1] == ASCII.cr { end -= 1 }
            lines.append(lineStart..<end)
            lineStart = index + 1
        }
        if lineStart < bytes.count { lines.append(lineStart..<bytes.count) }
        guard let requestLine = lines.first else { return .failure(.init(status: 400, message: "Empty request")) }
        var head: RequestHead
        switch parseRequestLine(bytes, requestLine) {
        case .success(let parsed): head = parsed
        case .failure(let error): return .failure(error)
        }
        head.headers.reserveCapacity(lines.count - 1)
        for line in lines.dropFirst() {
            switch parseHeaderLine(bytes, line) {
            case .success(let field): head.headers.append(field)
            case .failure(let error): return .failure(error)
            }
        }
        return .success(head)
    }

    private static func parseRequestLine(_ bytes: Bytes, _ line: Range<Int>) -> Result<RequestHead, HeadParseError> {
        let malformed = HeadParseError(status: 400, message: "Malformed request line")
        guard let firstSpace = line.first(where: { bytes[$0] == ASCII.space }),
            let secondSpace = (firstSpace + 1..<line.upperBound).first(where: { bytes[$0] == ASCII.space })
        else { return .failure(malformed) }
        let methodRange = line.lowerBound..<firstSpace
        let targetRange = firstSpace + 1..<secondSpace
        let versionRange = secondSpace + 1..<line.upperBound
        guard !methodRange.isEmpty, methodRange.allSatisfy({ ASCII.isTokenCharacter(bytes[$0]) }),
            !targetRange.isEmpty, targetRange.allSatisfy({ bytes[$0] > 0x20 && bytes[$0] != 0x7F })
        else { return .failure(malformed) }
        let version = Array(bytes[versionRange])
        guard version.count == 8, version.starts(with: "HTTP/".utf8), version[6] == UInt8(ascii: "."),
            let major = digitValue(version[5]), let minor = digitValue(version[7])
        else { return .failure(malformed) }
        guard major == 1 else {
            return .failure(.init(status: 505, message: "Only HTTP/1.0 and HTTP/1.1 are supported"))
        }
        return .success(
            RequestHead(
                method: string(bytes, methodRange), target: string(bytes, targetRange), minorVersion: minor,
                headers: []))
    }

    private static func parseHeaderLine(_ bytes: Bytes, _ line: Range<Int>) -> Result<HeaderField, HeadParseError> {
        guard let first = line.first, bytes[first] != ASCII.space, bytes[first] != ASCII.tab else {
            return .failure(.init(status: 400, message: "Obsolete header line folding is not supported"))
        }
        guard let colon = line.first(where: { bytes[$0] == ASCII.colon }), colon > line.lowerBound,
            (line.lowerBound..<colon).allSatisfy({ ASCII.isTokenCharacter(bytes[$0]) })
        else { return .failure(.init(status: 400, message: "Malformed header field")) }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd && (bytes[valueStart] == ASCII.space || bytes[valueStart] == ASCII.tab) {
            valueStart += 1
        }
        while valueEnd > valueStart && (bytes[valueEnd - 1] == ASCII.space || bytes[valueEnd - 1] == ASCII.tab) {
            valueEnd -= 1
        }
        guard !(valueStart..<valueEnd).contains(where: { bytes[$0] == ASCII.cr || bytes[$0] == 0 }) else {
            return .failure(.init(status: 400, message: "Invalid character in header value"))
        }
        return .success((string(bytes, line.lowerBound..<colon), string(bytes, valueStart..<valueEnd)))
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func string(_ bytes: Bytes, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
