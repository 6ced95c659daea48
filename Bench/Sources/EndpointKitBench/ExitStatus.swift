import Foundation

/// The exit status the detached benchmark task hands to the main thread.
final class ExitStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int32 = 0

    /// The status set last; 0 before.
    var value: Int32 { lock.withLock { stored } }

    /// Sets the status.
    func set(_ status: Int32) { lock.withLock { stored = status } }
}
