import EndpointKit
import Foundation

/// The transports the conformance suite runs against, by name.
///
/// `ENDPOINTKIT_TRANSPORTS=curl` (or `urlsession`, comma-separated) limits a run to some of them.
struct TransportKind: Sendable {
    let name: String
    let make: @Sendable () throws -> any Transport

    static let urlSession = TransportKind(name: "URLSessionTransport") { URLSessionTransport() }

    #if os(Linux)
    static let curl = TransportKind(name: "CurlTransport") { try CurlTransport() }
    static let available = [urlSession, curl]
    #else
    static let available = [urlSession]
    #endif

    /// The available transports, filtered by `ENDPOINTKIT_TRANSPORTS` if it is set.
    static var selected: [TransportKind] {
        guard let filter = ProcessInfo.processInfo.environment["ENDPOINTKIT_TRANSPORTS"]?.lowercased() else {
            return available
        }
        let names = filter.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return available.filter { kind in names.contains { kind.name.lowercased().hasPrefix($0) } }
    }
}
