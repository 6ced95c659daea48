/// Where a function is declared, as far as the count is concerned.
struct Place: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A file of `Sources/EndpointKit`.
        case library
        /// Code the compiler made (thunks, witness tables' entries, inlinable code of other
        /// modules emitted here): no file of its own.
        case generated
        /// Any other file: this tool, the test server.
        case outside
    }

    let kind: Kind
    /// For ``Kind/library``, the path below `Sources/EndpointKit/` (`Core/3-Execution/APIClient.swift`);
    /// else the file as the debug information names it.
    let path: String

    /// The marker that starts a library path in the debug information's absolute file names.
    static let libraryMarker = "/Sources/EndpointKit/"

    init(file: String) {
        if let range = file.range(of: Self.libraryMarker) {
            kind = .library
            path = String(file[range.upperBound...])
        } else if file.isEmpty || file.hasSuffix("<compiler-generated>") {
            kind = .generated
            path = "<compiler-generated>"
        } else {
            kind = .outside
            path = file
        }
    }

    /// The file's name.
    var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The folder counted for hops: the first two levels below `Sources/EndpointKit`
    /// (`Core/3-Execution`, `Features/Caching`, `Transports/Curl`); a file one level down is in
    /// that first level (`Support`, and `Features`, `Transports` for the files directly in them);
    /// a file at the top is in `.`.
    var folder: String {
        let components = path.split(separator: "/")
        switch components.count {
        case 0, 1: return "."
        case 2: return String(components[0])
        default: return components[0] + "/" + components[1]
        }
    }

    /// Whether the file is one of the transports' own (`Sources/EndpointKit/Transports/...`).
    var isTransportFile: Bool { kind == .library && path.hasPrefix("Transports/") }
}
