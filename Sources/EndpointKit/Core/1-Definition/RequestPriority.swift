/// How urgent a request is, like YTKNetwork's `requestPriority`; mapped to the transport task's
/// priority (`URLSessionTask.priority`) on Apple platforms. On Linux neither transport uses it:
/// FoundationNetworking keeps a task's priority without acting on it, and libcurl has no priority
/// between transfers.
public enum RequestPriority: Sendable, Hashable, Comparable {
    /// Prefetching, analytics.
    case low
    /// The default.
    case normal
    /// What the user is waiting for.
    case high

    /// The value used for `URLSessionTask.priority` (0 to 1).
    package var taskPriority: Float {
        switch self {
        case .low: return 0.25
        case .normal: return 0.5
        case .high: return 0.75
        }
    }
}
