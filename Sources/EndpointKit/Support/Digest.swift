import Foundation

/// Stable digests for file names and cache keys.
enum Digest {
    /// A hexadecimal digest of `text`.
    static func hex(_ text: String) -> String {
        PartialDownload.fnv1a(text) + PartialDownload.fnv1a("EndpointKit|" + text)
    }
}
