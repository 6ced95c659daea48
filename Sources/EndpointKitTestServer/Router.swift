/// Maps request paths to handlers: exact patterns, and prefix patterns ending in `*`.
///
/// An exact match beats any prefix; among prefixes the longest wins; registering the same
/// pattern again replaces the earlier handler.
struct Router: Sendable {
    private var exact: [String: TestServer.Handler] = [:]
    /// Sorted by prefix length, longest first.
    private var prefixes: [(prefix: String, handler: TestServer.Handler)] = []

    /// Registers `handler` for `pattern` (see ``TestServer/route(_:_:)``).
    mutating func add(_ pattern: String, _ handler: @escaping TestServer.Handler) {
        guard pattern.hasSuffix("*") else {
            exact[pattern] = handler
            return
        }
        let prefix = String(pattern.dropLast())
        prefixes.removeAll { $0.prefix == prefix }
        let index = prefixes.firstIndex { $0.prefix.utf8.count < prefix.utf8.count } ?? prefixes.endIndex
        prefixes.insert((prefix, handler), at: index)
    }

    /// The handler for a raw request path, or `nil` when no pattern matches.
    func handler(for path: String) -> TestServer.Handler? {
        if let handler = exact[path] { return handler }
        return prefixes.first { path.utf8.starts(with: $0.prefix.utf8) }?.handler
    }
}
