#if os(Linux) && canImport(CCurlShim)
import Foundation

/// Where a ``CurlTransfer``'s request body comes from.
enum CurlRequestBody: Sendable {
    /// No body.
    case none
    /// These bytes (libcurl copies them: `COPYPOSTFIELDS`).
    case data(Data)
    /// A file's bytes, streamed, never held in memory; sent with its `Content-Length`.
    case file(URL)

    /// The bytes of a `.data` body.
    var data: Data? {
        if case .data(let data) = self { return data }
        return nil
    }

    /// Whether a body is sent.
    var hasBytes: Bool {
        if case .none = self { return false }
        return true
    }
}

/// An open file being streamed as a request body by libcurl's read callback.
struct CurlUploadFile {
    private(set) var descriptor: Int32
    /// The file's size when it was opened.
    let length: Int64

    /// Opens the file.
    /// - Throws: ``TransportError/Reason/localFileError`` if it cannot be read.
    init(_ url: URL) throws(TransportError) {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let error = errno
            if descriptor >= 0 { POSIXFile.closeFile(descriptor) }
            throw TransportError(
                .localFileError, message: "Cannot read the body file \(url.path) (errno \(error)).")
        }
        length = Int64(status.st_size)
    }

    /// Fills `buffer`; libcurl's `CURL_READFUNC_ABORT` on a read error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        while true {
            let count = POSIXFile.readBytes(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { return 0x1000_0000 }
        }
    }

    /// Starts over, for a redirect that resends the body.
    func rewind() { _ = lseek(descriptor, 0, SEEK_SET) }

    /// Closes the file.
    mutating func close() {
        if descriptor >= 0 { POSIXFile.closeFile(descriptor) }
        descriptor = -1
    }
}
#endif
