import Foundation

/// Facts about local files that uploads, downloads and the cache ask for.
package enum LocalFile {
    /// The size of the item at `url`, or `nil` when there is none.
    package static func size(_ url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }

    /// The size of a file that can be sent as (part of) a request body.
    /// - Throws: ``RequestBuildError/unreadableFile(_:reason:)`` when it is missing, unreadable or
    ///   not a regular file.
    static func uploadableSize(_ url: URL) throws(RequestBuildError) -> Int64 {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .unreadableFile(url, reason: "it does not exist or is not readable")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = (attributes?[.size] as? NSNumber)?.int64Value,
            (attributes?[.type] as? FileAttributeType) != .typeDirectory
        else { throw .unreadableFile(url, reason: "it is not a regular file") }
        return size
    }
}
