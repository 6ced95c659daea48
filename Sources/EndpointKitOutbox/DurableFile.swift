import EndpointKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations that are complete once they return, even if the process is killed or the power
/// fails right after: data is written to a temporary file on the same file system, flushed to the
/// device, renamed into place, and the directory that changed is flushed too (a rename is only
/// durable once its directory is).
///
/// On Apple platforms files get the `completeUntilFirstUserAuthentication` protection class, and a
/// flush is `F_FULLFSYNC` (plain `fsync` there only reaches the drive's cache).
enum DurableFile {
    /// Writes `parts`, one after the other, as the file `destination`.
    static func write(_ parts: [Data], to destination: URL, temporaryDirectory: URL) throws(OutboxError) {
        let temporary = temporaryDirectory.appendingPathComponent(UUID().uuidString + ".tmp")
        let descriptor = try create(temporary)
        do {
            for part in parts { try writeAll(part, to: descriptor, path: temporary.path) }
            try flush(descriptor, path: temporary.path)
        } catch {
            close(descriptor)
            unlink(temporary.path)
            throw error
        }
        close(descriptor)
        try renameTemporary(temporary, to: destination)
    }

    /// Copies the file at `source` to `destination`, in pieces, with the same guarantees as
    /// ``write(_:to:temporaryDirectory:)``.
    static func copy(_ source: URL, to destination: URL, temporaryDirectory: URL) throws(OutboxError) {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw error(errno, path: source.path) }
        defer { close(input) }
        let temporary = temporaryDirectory.appendingPathComponent(UUID().uuidString + ".tmp")
        let output = try create(temporary)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        do throws(OutboxError) {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw error(errno, path: source.path) }
                if count == 0 { break }
                try writeAll(Data(buffer[0..<count]), to: output, path: temporary.path)
            }
            try flush(output, path: temporary.path)
        } catch {
            close(output)
            unlink(temporary.path)
            throw error
        }
        close(output)
        try renameTemporary(temporary, to: destination)
    }

    /// Renames a written temporary file into place, removing it when that fails.
    private static func renameTemporary(_ temporary: URL, to destination: URL) throws(OutboxError) {
        do {
            try rename(temporary, to: destination, syncingSource: false)
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    /// Renames `source` to `destination` (on the same file system) and flushes both directories
    /// (only the destination's when `syncingSource` is `false`: a temporary file's folder).
    static func rename(_ source: URL, to destination: URL, syncingSource: Bool = true) throws(OutboxError) {
        let renamed: Int32
        #if canImport(Glibc)
        renamed = Glibc.rename(source.path, destination.path)
        #else
        renamed = Darwin.rename(source.path, destination.path)
        #endif
        guard renamed == 0 else { throw error(errno, path: destination.path) }
        let sourceDirectory = source.deletingLastPathComponent()
        let destinationDirectory = destination.deletingLastPathComponent()
        try syncDirectory(destinationDirectory)
        if syncingSource, sourceDirectory.path != destinationDirectory.path { try syncDirectory(sourceDirectory) }
    }

    /// Removes a file (if it is there) and flushes its directory.
    static func remove(_ url: URL) throws(OutboxError) {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw error(errno, path: url.path) }
        try syncDirectory(url.deletingLastPathComponent())
    }

    /// Flushes a directory, so that the names created, renamed or removed in it are on the device.
    static func syncDirectory(_ url: URL) throws(OutboxError) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error(errno, path: url.path) }
        defer { close(descriptor) }
        try flush(descriptor, path: url.path)
    }

    /// Gives a file or directory the protection class of the outbox (Apple platforms only).
    static func protect(_ path: String) {
        #if canImport(Darwin)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
        #endif
    }

    /// The error for a failed call on `path`.
    static func error(_ code: Int32, path: String) -> OutboxError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return .diskFull(path: path)
        case EROFS, EACCES, EPERM: return .directoryNotWritable(path: path, reason: reason)
        default: return .fileSystemError(path: path, reason: reason)
        }
    }

    private static func create(_ url: URL) throws(OutboxError) -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw error(errno, path: url.path) }
        protect(url.path)
        return descriptor
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(OutboxError) {
        let failure: Int32? = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw error(failure, path: path) }
    }

    private static func flush(_ descriptor: Int32, path: String) throws(OutboxError) {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw error(errno, path: path) }
    }
}

/// `write(2)`, named apart from ``DurableFile/write(_:to:temporaryDirectory:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
