import Foundation

/// An endpoint whose body is saved to a file: the result is the file's URL.
///
/// The body streams to a partial file outside the destination and is moved into place only when
/// complete, so the destination never holds a half-written file. If the transfer breaks, the
/// partial file is kept and the next send resumes it with `Range` and `If-Range` (the ETag or
/// Last-Modified of the first response); a server that answers `200` instead of `206`, or a
/// changed resource, restarts cleanly from zero.
///
/// ```swift
/// struct DownloadReport: DownloadRequest {
///     let id: Int
///     var path: RequestPath { "/reports/\(id).pdf" }
///     var destination: DownloadDestination { .directory(documentsURL) }   // server-suggested name
/// }
/// let fileURL = try await client.value(for: DownloadReport(id: 7))
/// ```
public protocol DownloadRequest: APIRequest where Response == URL {
    /// Where the finished file goes.
    var destination: DownloadDestination { get }
    /// Whether a broken transfer keeps its partial file and resumes on the next send. `true` by
    /// default.
    var isResumable: Bool { get }
}

extension DownloadRequest {
    /// `true`.
    public var isResumable: Bool { true }

    /// The downloaded file (the client moves it to the destination afterwards).
    public func decode(_ context: DecodingContext) throws -> URL {
        guard let fileURL = context.fileURL else {
            throw DecodingError.valueNotFound(
                URL.self, .init(codingPath: [], debugDescription: "The transport did not write the body to a file."))
        }
        return fileURL
    }
}

/// Where a downloaded file goes: made with ``file(_:replacingExisting:createsIntermediateDirectories:)``
/// or ``directory(_:replacingExisting:createsIntermediateDirectories:)``.
public struct DownloadDestination: Sendable, Hashable {
    /// A file or a folder.
    enum Location: Sendable, Hashable {
        /// Exactly this file.
        case file(URL)
        /// This folder, with the name the server suggests (`Content-Disposition`, sanitized) or
        /// else the last path component of the URL.
        case directory(URL)
    }

    /// The file or folder.
    var location: Location
    /// Whether an existing file is replaced; otherwise the download fails with
    /// ``TransportError/Reason/localFileError`` and the existing file is left alone.
    var replacesExisting: Bool
    /// Whether a missing destination folder is created, with every missing folder above it
    /// (Alamofire's `.createIntermediateDirectories`); otherwise a missing folder fails the
    /// download with ``TransportError/Reason/localFileError``.
    var createsIntermediateDirectories = false

    /// Exactly this file.
    /// - Parameters:
    ///   - url: The file to write.
    ///   - replacingExisting: Whether an existing file is replaced; `false` by default.
    ///   - createsIntermediateDirectories: Whether missing folders are created; `false` by default.
    public static func file(
        _ url: URL, replacingExisting: Bool = false, createsIntermediateDirectories: Bool = false
    ) -> DownloadDestination {
        DownloadDestination(
            location: .file(url), replacesExisting: replacingExisting,
            createsIntermediateDirectories: createsIntermediateDirectories)
    }

    /// This folder, with the server-suggested name.
    /// - Parameters:
    ///   - url: The folder to write into.
    ///   - replacingExisting: Whether an existing file is replaced; `false` by default.
    ///   - createsIntermediateDirectories: Whether the folder, and missing folders above it, are
    ///     created when missing; `false` by default.
    public static func directory(
        _ url: URL, replacingExisting: Bool = false, createsIntermediateDirectories: Bool = false
    ) -> DownloadDestination {
        DownloadDestination(
            location: .directory(url), replacesExisting: replacingExisting,
            createsIntermediateDirectories: createsIntermediateDirectories)
    }

    /// A file name from a `Content-Disposition` value, made safe: no folders, no `..`, no control
    /// characters, no leading dots, at most 255 bytes. `nil` when nothing usable is left.
    @_spi(Internal) public static func sanitizedFileName(fromContentDisposition value: String) -> String? {
        var candidate: String?
        for parameter in value.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let lowered = parameter.lowercased()
            if lowered.hasPrefix("filename*=") {
                let encoded = parameter.dropFirst("filename*=".count)
                let raw = encoded.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false).last.map(
                    String.init)
                candidate = raw?.removingPercentEncoding ?? raw
                break
            } else if lowered.hasPrefix("filename=") {
                candidate = String(parameter.dropFirst("filename=".count)).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\""))
            }
        }
        return candidate.flatMap { sanitizedFileName($0) }
    }

    /// A file name made safe as described in ``sanitizedFileName(fromContentDisposition:)``.
    @_spi(Internal) public static func sanitizedFileName(_ name: String) -> String? {
        // Split on scalars: as a Character, "/" followed by a combining mark is not "/".
        let lastComponent = name.unicodeScalars.split { $0 == "/" || $0 == "\\" }.last ?? Substring.UnicodeScalarView()
        var cleaned = String(String.UnicodeScalarView(lastComponent.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        // Dots and spaces in any order (" ..", ". .hidden") would leave a relative or hidden name.
        while let first = cleaned.unicodeScalars.first, first == "." || CharacterSet.whitespaces.contains(first) {
            cleaned.unicodeScalars.removeFirst()
        }
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        return cleaned.isEmpty ? nil : cleaned
    }
}
