import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects a response body: in memory under a size cap, or, for a 2xx response to a request
/// with a ``DownloadTarget``, straight into the target file (appending to it for a `206` that
/// continues at the resume offset). Used by transports; not thread-safe on its own.
final class ResponseBodyWriter {
    private enum Sink {
        case memory(Data)
        case file(FileHandle, URL)
    }

    private let limit: Int
    private let download: DownloadTarget?
    private var sink = Sink.memory(Data())
    /// Body bytes so far, counting bytes a resumed download already had.
    private(set) var received: Int64 = 0
    /// The full body size, when the response said.
    private(set) var expectedTotal: Int64?

    init(limit: Int, download: DownloadTarget?) {
        self.limit = limit
        self.download = download
    }

    /// Chooses where the body goes, from the response head.
    func begin(_ response: ResponseHead) throws(TransportError) {
        let expected = response.expectedContentLength
        guard let download, (200..<300).contains(response.statusCode) else {
            if expected > Int64(limit) { throw tooLarge }
            if expected > 0 { sink = .memory(Data(capacity: Int(expected))) }
            expectedTotal = expected >= 0 ? expected : nil
            return
        }
        let resuming = response.statusCode == 206 && download.resumeOffset > 0
        if response.statusCode == 206, !resuming || Self.rangeStart(of: response) != download.resumeOffset {
            throw TransportError(.badResponse, message: "The server answered a range that was not asked for.")
        }
        let url = download.fileURL
        download.onResponse?(response.response)
        do {
            if !FileManager.default.fileExists(atPath: url.path) {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CocoaError(.fileWriteNoPermission)
                }
            }
            let handle = try FileHandle(forWritingTo: url)
            if resuming {
                try handle.truncate(atOffset: UInt64(download.resumeOffset))
                try handle.seekToEnd()
            } else {
                try handle.truncate(atOffset: 0)
            }
            sink = .file(handle, url)
        } catch {
            throw TransportError(
                .localFileError, message: "Cannot write the download to \(url.path): \(error)", underlyingError: error)
        }
        received = resuming ? download.resumeOffset : 0
        expectedTotal = expected >= 0 ? received + expected : nil
    }

    /// Adds body bytes.
    func append(_ data: Data) throws(TransportError) {
        try append(bytes: data)
    }

    /// Adds body bytes from a buffer the caller owns (libcurl's), copying them once.
    func append(_ data: UnsafeRawBufferPointer) throws(TransportError) {
        try append(bytes: data)
    }

    private func append(bytes data: some DataProtocol) throws(TransportError) {
        switch sink {
        case .memory(var buffer):
            guard buffer.count + data.count <= limit else { throw tooLarge }
            sink = .memory(Data())  // keep the buffer uniquely referenced while appending
            buffer.append(contentsOf: data)
            sink = .memory(buffer)
        case .file(let handle, let url):
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw TransportError(
                    .localFileError, message: "Writing the download to \(url.path) failed: \(error)",
                    underlyingError: error)
            }
        }
        received += Int64(data.count)
    }

    /// Ends the body: the bytes in memory, or the file (flushed and closed).
    func finish() throws(TransportError) -> (data: Data, fileURL: URL?) {
        switch sink {
        case .memory(let buffer):
            return (buffer, nil)
        case .file(let handle, let url):
            do {
                try handle.synchronize()
                try handle.close()
            } catch {
                throw TransportError(
                    .localFileError, message: "Closing \(url.path) failed: \(error)", underlyingError: error)
            }
            sink = .memory(Data())
            return (Data(), url)
        }
    }

    /// Stops writing after a failure; a download file keeps what it has, for a later resume.
    func abandon() {
        if case .file(let handle, _) = sink { try? handle.close() }
        sink = .memory(Data())
    }

    private var tooLarge: TransportError {
        TransportError(.responseTooLarge(limit: limit), message: "The response body is larger than \(limit) bytes.")
    }

    /// The first byte position of `Content-Range: bytes 100-199/200`.
    static func rangeStart(of response: ResponseHead) -> Int64? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range")?.lowercased(),
            value.hasPrefix("bytes ")
        else { return nil }
        return Int64(value.dropFirst(6).prefix { $0.isNumber })
    }
}
