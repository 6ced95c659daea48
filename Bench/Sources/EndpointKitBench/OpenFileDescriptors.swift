import Foundation

/// This process's open file descriptors, from `/proc/self/fd` (Linux).
enum OpenFileDescriptors {
    /// How many descriptors are open, not counting the one used to list them; `nil` where
    /// `/proc` is missing.
    static func count() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.count - 1
    }
}
