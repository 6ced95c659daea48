/// A value for every host, and values for particular hosts: how a transport picks the client
/// certificate it presents.
struct HostSelection<Value: Sendable>: Sendable {
    /// The value for hosts without one of their own.
    let fallback: Value?
    /// Values by lowercased host name.
    private let byHost: [String: Value]

    /// - Parameters:
    ///   - fallback: For every host without a value of its own.
    ///   - byHost: Values by host name (case-insensitive).
    init(fallback: Value?, byHost: [String: Value]) {
        self.fallback = fallback
        var lowercased: [String: Value] = [:]
        for (host, value) in byHost { lowercased[host.lowercased()] = value }
        self.byHost = lowercased
    }

    /// The value for `host`: its own, or the fallback.
    func value(forHost host: String?) -> Value? {
        guard !byHost.isEmpty, let host, let own = byHost[host.lowercased()] else { return fallback }
        return own
    }

    /// The same selection with every value transformed.
    func map<Other: Sendable, Failure: Error>(
        _ transform: (Value) throws(Failure) -> Other
    ) throws(Failure) -> HostSelection<Other> {
        var byHost: [String: Other] = [:]
        for (host, value) in self.byHost { byHost[host] = try transform(value) }
        return HostSelection<Other>(fallback: try fallback.map(transform), byHost: byHost)
    }
}
