#if canImport(CCurlShim)
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a ``CurlTransfer`` puts the response body: memory (capped), or a file.
///
/// For a file, only a 2xx body goes to the file; any other body (an error page, a redirect's) stays
/// in memory under the cap, so that it can become a `ServerFailure`. With `resumeFrom`, a 206 whose
/// `Content-Range` starts there is appended; a 200 (the server ignored the range) starts the file
/// over. The file is only opened once the final status is known.
struct CurlResponseBody {
    /// Where the body goes.
    enum Destination: Sendable {
        /// In memory, in ``TransportResponse/data``.
        case memory
        /// Into `file`; with `resumeFrom`, a `Range: bytes=N-` request whose 206 answer is appended.
        case file(URL, resumeFrom: Int64?)
    }

    let destination: Destination
    let limit: Int
    private(set) var data = Data()
    /// Bytes written to the file.
    private(set) var fileBytes: Int64 = 0
    /// Why writing stopped, if it did.
    private(set) var failure: TransportError?
    private var descriptor: Int32 = -1
    private var discarding = false

    init(destination: Destination, limit: Int) {
        self.destination = destination
        self.limit = limit
    }

    /// Decides where this hop's body goes, once its head is complete.
    mutating func begin(_ head: CurlResponseHead, followsRedirect: Bool) {
        data = Data()
        discarding = followsRedirect
        guard !followsRedirect, case .file(let url, let resumeFrom) = destination, (200..<300).contains(head.statusCode)
        else {
            if let length = head.contentLength, length > 0, length <= limit, !followsRedirect {
                data.reserveCapacity(length)
            }
            return
        }
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_TRUNC
        if let offset = resumeFrom, head.statusCode == 206 {
            guard let range = head.value(for: "Content-Range"), Self.rangeStart(range) == offset else {
                failure = TransportError(
                    .badResponse,
                    message: "The server resumed at another offset than \(offset) (Content-Range: "
                        + "\(head.value(for: "Content-Range") ?? "none")).")
                return
            }
            flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_APPEND
        }
        descriptor = open(url.path, flags, 0o644)
        if descriptor < 0 {
            failure = TransportError(.other, message: "Cannot open \(url.path) for writing (errno \(errno)).")
        }
    }

    /// Takes body bytes.
    /// - Returns: `false` to stop the transfer (over the cap, or the file cannot be written).
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        if discarding || bytes.isEmpty { return true }
        guard descriptor >= 0 else {
            guard data.count + bytes.count <= limit else {
                failure = TransportError(
                    .responseTooLarge(limit: limit), message: "The response body is larger than \(limit) bytes.")
                return false
            }
            data.append(contentsOf: bytes)
            return true
        }
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                failure = TransportError(
                    .other, message: "Writing the response body to a file failed (errno \(errno)).")
                return false
            }
            offset += written
        }
        fileBytes += Int64(bytes.count)
        return true
    }

    /// Hands over the in-memory body.
    mutating func takeData() -> Data {
        defer { data = Data() }
        return data
    }

    /// Closes the file, if one is open.
    mutating func close() {
        if descriptor >= 0 { POSIXFile.closeFile(descriptor) }
        descriptor = -1
    }

    /// The first byte position of `bytes N-M/T`.
    private static func rangeStart(_ contentRange: String) -> Int64? {
        let text = contentRange.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes "), let dash = text.firstIndex(of: "-") else { return nil }
        return Int64(text[text.index(text.startIndex, offsetBy: 6)..<dash].trimmingCharacters(in: .whitespaces))
    }
}
#endif
