import EndpointKit
import Foundation

/// Why an ``Outbox`` could not be opened, or could not take or change an entry. An entry is never
/// dropped silently: when `enqueue(_:kind:lane:)` throws, nothing was stored.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The outbox holds ``Outbox/Configuration/maximumEntries`` entries (waiting and dead letters).
    case entryLimitReached(Int)
    /// The entry would take the outbox over ``Outbox/Configuration/maximumBytes`` bytes on disk.
    case byteLimitReached(Int64)
    /// The file system has no room left for the entry (`ENOSPC`, or the user's quota).
    case diskFull(path: String)
    /// The directory cannot be written: read-only, or without permission.
    case directoryNotWritable(path: String, reason: String)
    /// Another ``Outbox`` (in this process or another) has the directory open.
    case directoryInUse(path: String)
    /// Any other failure of the file system (an I/O error, a name too long...).
    case fileSystemError(path: String, reason: String)
    /// The request could not be built, so there is nothing to store (see ``/EndpointKit/RequestBuildError``).
    case requestBuildFailed(RequestBuildError)
    /// No dead letter has this identifier (already retried, discarded or never there).
    case noSuchEntry(OutboxEntry.ID)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .entryLimitReached(let limit): return "The outbox is full: it holds its limit of \(limit) entries."
        case .byteLimitReached(let limit): return "The outbox is full: the entry would take it over \(limit) bytes."
        case .diskFull(let path): return "No space left on the device for \(path)."
        case .directoryNotWritable(let path, let reason): return "\(path) cannot be written: \(reason)."
        case .directoryInUse(let path): return "Another outbox has \(path) open."
        case .fileSystemError(let path, let reason): return "A file operation on \(path) failed: \(reason)."
        case .requestBuildFailed(let error): return "The request could not be built: \(error)"
        case .noSuchEntry(let id): return "No dead letter \(id) in the outbox."
        }
    }
}
