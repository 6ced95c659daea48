/// Why a fixture of a ``RecordReplayTransport`` could not be used: the reason a replayed request
/// fails, found as the ``/EndpointKit/TransportError/underlyingError``.
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the fixture.
    public enum Kind: Sendable, Hashable {
        /// No fixture file exists for the request (replay mode).
        case missing
        /// The file exists but is not a valid fixture; the problem in words.
        case malformed(String)
        /// The file could not be written (record mode); the problem in words.
        case unwritable(String)
    }

    /// What is wrong.
    public let kind: Kind
    /// The path of the fixture file looked for, read or written.
    public let path: String
    /// The request, as `METHOD URL`.
    public let request: String

    /// Creates a fixture error.
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - path: The fixture file's path.
    ///   - request: The request, as `METHOD URL`.
    public init(_ kind: Kind, path: String, request: String) {
        self.kind = kind
        self.path = path
        self.request = request
    }

    /// A sentence naming the file, the problem and, for a missing fixture, how to record it.
    public var description: String {
        switch kind {
        case .missing:
            return "No fixture for \(request) at \(path). Record it by running the test with "
                + "\(RecordReplayTransport.Mode.environmentVariable)=1 against a server."
        case .malformed(let problem):
            return "Malformed fixture \(path) (for \(request)): \(problem)"
        case .unwritable(let problem):
            return "Could not write fixture \(path) (for \(request)): \(problem)"
        }
    }
}
