import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The partial file of a resumable download and its sidecar (the validator of the response it
/// came from), kept in the client's partial-downloads folder under a name derived from the URL
/// and the destination.
struct PartialDownload: Sendable {
    private struct Sidecar: Codable {
        var url: String
        var validator: String
    }

    let fileURL: URL
    private let sidecarURL: URL
    private let sourceURL: String

    init(folder: URL, sourceURL: URL, destination: DownloadDestination) {
        let key = Digest.hex("\(sourceURL.absoluteString)|\(destination)")
        fileURL = folder.appendingPathComponent("\(key).partial")
        sidecarURL = folder.appendingPathComponent("\(key).json")
        self.sourceURL = sourceURL.absoluteString
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The bytes already downloaded and the validator to resume them with, when resuming is possible.
    func resumePoint() -> (offset: Int64, validator: String)? {
        guard let size = LocalFile.size(fileURL), size > 0,
            let data = try? Data(contentsOf: sidecarURL),
            let sidecar = try? JSONDecoder().decode(Sidecar.self, from: data), sidecar.url == sourceURL,
            !sidecar.validator.isEmpty
        else { return nil }
        return (size, sidecar.validator)
    }

    /// Remembers the validator of the response being written (strong ETag, else Last-Modified).
    func record(_ response: HTTPURLResponse) {
        let etag = response.value(forHTTPHeaderField: "ETag")
        let validator =
            etag.flatMap { $0.hasPrefix("W/") ? nil : $0 } ?? response.value(forHTTPHeaderField: "Last-Modified")
        guard let validator, let data = try? JSONEncoder().encode(Sidecar(url: sourceURL, validator: validator)) else {
            try? FileManager.default.removeItem(at: sidecarURL)
            return
        }
        try? data.write(to: sidecarURL, options: .atomic)
    }

    /// Removes the partial file and its sidecar.
    func discard() {
        try? FileManager.default.removeItem(at: fileURL)
        try? FileManager.default.removeItem(at: sidecarURL)
    }

    /// Moves the finished file to its destination without ever leaving a partial file there:
    /// first into a hidden temporary name in the destination folder, then renamed into place.
    func moveToDestination(_ destination: DownloadDestination, response: HTTPURLResponse) throws(TransportError) -> URL
    {
        let target: URL
        switch destination.location {
        case .file(let url):
            target = url
        case .directory(let folder):
            let suggested = response.value(forHTTPHeaderField: "Content-Disposition")
                .flatMap(DownloadDestination.sanitizedFileName(fromContentDisposition:))
            let fallback = response.url.flatMap { DownloadDestination.sanitizedFileName($0.lastPathComponent) }
            target = folder.appendingPathComponent(suggested ?? fallback ?? "download")
        }
        let folder = target.deletingLastPathComponent()
        if destination.createsIntermediateDirectories, !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw TransportError(
                    .localFileError, message: "Creating the destination folder \(folder.path) failed: \(error)",
                    underlyingError: error)
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: folder.path)
        else {
            throw TransportError(
                .localFileError, message: "The destination folder \(folder.path) is missing or not writable.")
        }
        if !destination.replacesExisting, FileManager.default.fileExists(atPath: target.path) {
            throw TransportError(
                .localFileError, message: "\(target.path) already exists; set replacesExisting to overwrite it.")
        }
        let staging = folder.appendingPathComponent(".\(UUID().uuidString).endpointkit-download")
        do {
            try FileManager.default.moveItem(at: fileURL, to: staging)
        } catch {
            throw TransportError(
                .localFileError, message: "Moving the download into \(folder.path) failed: \(error)",
                underlyingError: error)
        }
        guard rename(staging.path, target.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: staging)
            throw TransportError(
                .localFileError, message: "Renaming the download to \(target.path) failed (errno \(code)).")
        }
        try? FileManager.default.removeItem(at: sidecarURL)
        return target
    }
}
