/// What the generator writes and from which part of the document.
package struct GeneratorOptions: Sendable, Hashable {
    /// The access level of every generated declaration.
    package enum AccessLevel: String, Sendable, CaseIterable {
        /// `public`.
        case `public`
        /// `package`.
        case `package`
        /// `internal` (written without a keyword).
        case `internal`

        /// The modifier with its trailing space, empty for `internal`.
        var modifier: String { self == .internal ? "" : rawValue + " " }
    }

    /// How the generated code is split into files.
    package enum Layout: String, Sendable, CaseIterable {
        /// `NAME.swift` with the requests, servers and security, `NAME+Models1.swift`… with the
        /// models and `NAME+Samples.swift`: the same file names whatever the document.
        case single
        /// `Models1.swift`…, `Support.swift`, `Security.swift` and a file per operation.
        case operation
        /// `Models1.swift`…, `Support.swift`, `Security.swift` and a file per operation's first tag.
        case tag
    }

    /// Operations with one of these tags; all when empty.
    package var tags: [String] = []
    /// Operations whose path is one of these or starts with one followed by `/`; all when empty.
    package var paths: [String] = []
    /// Operations with one of these `operationId`s; all when empty.
    package var operationIDs: [String] = []
    /// The access level of the declarations.
    package var accessLevel: AccessLevel = .public
    /// Put before every generated type name.
    package var typePrefix: String = ""
    /// Component schemas not generated: a reference to one is a `JSONValue`.
    package var skippedSchemas: [String] = []
    /// How the code is split into files.
    package var layout: Layout = .single
    /// The base name of the single layout's files.
    package var name: String = "API"
    /// How many model files are written (some may hold no declaration); `nil`: one per about
    /// 1500 lines.
    package var modelFiles: Int? = nil
    /// Whether structs and unions are `Equatable` too (enums always are). Off by default: the
    /// synthesized `==` of every model is about 40 % of a large generated module's build time.
    package var equatable: Bool = false
    /// Whether sample responses are written.
    package var samples: Bool = true
    /// The document's file name, written in every file's header.
    package var sourceName: String = "the OpenAPI document"

    /// The defaults: everything, public, one file, samples.
    package init() {}

    /// Whether any filter is set, so that only the schemas the chosen operations use are generated.
    var filters: Bool { !tags.isEmpty || !paths.isEmpty || !operationIDs.isEmpty }

    /// Whether a path is selected: equal to a `--path` or below it (`/users` selects `/users/{id}`).
    func selects(path: String) -> Bool {
        paths.isEmpty
            || paths.contains { prefix in
                path == prefix || path.hasPrefix(prefix.hasSuffix("/") ? prefix : prefix + "/")
            }
    }
}
