import EndpointKit

/// How one soak request ended, in the categories the summary counts.
enum SoakOutcome: Hashable, Comparable, CustomStringConvertible, Sendable {
    /// Decoded a value.
    case success
    /// The server said no (HTTP status or envelope).
    case serverFailure
    /// Cancelled through its handle.
    case cancelled
    /// Any other transport error, by reason name (`timedOut`, `connectionLost`...).
    case transportError(String)

    /// Classifies a result.
    init<Value>(_ result: APIResult<Value>) {
        switch result {
        case .success: self = .success
        case .serverFailure: self = .serverFailure
        case .transportError(let error) where error.reason == .cancelled: self = .cancelled
        case .transportError(let error): self = .transportError(Self.name(of: error.reason))
        }
    }

    /// A transport error with this reason.
    static func transport(_ reason: TransportError.Reason) -> SoakOutcome { .transportError(name(of: reason)) }

    /// The reason's case name without associated values: `responseTooLarge(limit: 8)` is
    /// `responseTooLarge`.
    private static func name(of reason: TransportError.Reason) -> String {
        String(String(describing: reason).prefix { $0 != "(" })
    }

    var description: String {
        switch self {
        case .success: return "success"
        case .serverFailure: return "server failure"
        case .cancelled: return "cancelled"
        case .transportError(let reason): return reason
        }
    }
}
