/// Which side of the transport seam a library function ran on.
enum Side: Sendable {
    /// Above the seam: everything from the call to `Transport.execute` and from the transport's
    /// callbacks (its completion, progress, a body sink) to the value.
    case above
    /// The transport's own work: its files, and library code they call that is not a callback.
    case transport
}

/// One entry into a function declared in a library file.
struct Call: Sendable {
    /// Position among all recorded events.
    let sequence: Int
    let thread: UInt32
    /// The simplified demangled name.
    let function: String
    let place: Place
    let side: Side
    /// Whether it ran after the value was back with the caller.
    let afterValue: Bool
    /// The file whose code called it (past thunks and `Support/`), when that is known.
    let caller: Place?
    /// Whether it is an async function resuming after an `await` or another suspension point
    /// (each resumption is an entry of its own): control coming back into a function already open.
    let isResumption: Bool
}

extension Call {
    /// Whether the compiler calls it where the source does not name a function: a default
    /// argument's generator, the addressor of a `static let` (its lazy initialization), a
    /// deinitializer (run by the last release, wherever that happens to be), a `defer` block.
    var isImplicit: Bool {
        function.hasPrefix("default argument ") || function.contains(".unsafeMutableAddressor")
            || function.hasSuffix(".deinit") || function.hasSuffix(".__deallocating_deinit")
            || function.contains("$defer")
    }
}

/// Which calls a count keeps.
enum Level: String, CaseIterable, Sendable {
    /// Every entry into a function of a library file.
    case every
    /// What the source calls: `every` without ``Call/isImplicit`` entries.
    case source
    /// What a reader following the request reads: `source` without `Support/` (the lock wrapper
    /// and the other helpers every part uses), whose calls stay inside the caller's step.
    case reader
    /// The files a reader follows: `reader` without the leaf files, those whose code called no
    /// other library file during the request (value types and defaults read on the way: an
    /// endpoint's default members, `APIResult`, a metadata value); their calls stay inside the
    /// caller's step. A file counts once any of its code calls another file.
    case spine

    func keeps(_ call: Call) -> Bool {
        switch self {
        case .every: true
        case .source: !call.isImplicit
        case .reader, .spine: !call.isImplicit && call.place.folder != "Support"
        }
    }

    /// What the level leaves out, in a line.
    var summary: String {
        switch self {
        case .every: "every function entered in a library file"
        case .source: "every, without default-argument generators, static-let addressors, deinits, defer blocks"
        case .reader: "source, without Support/ (Locked and the other shared helpers)"
        case .spine: "reader, without leaf files (whose code called no other library file)"
        }
    }
}

/// The ordered library calls of one traced request, and what was left out of them.
struct CallPath: Sendable {
    /// One recorded function entry of any kind (a library call, compiler-generated code, this tool,
    /// an unsymbolized address): what was open under it shows which functions had returned.
    struct Entry: Sendable {
        let sequence: Int
        let thread: UInt32
        /// The entries still open under it on its thread (by frame address), innermost first, as
        /// their `sequence`.
        let openFrames: [Int]
    }

    let calls: [Call]
    /// Every entry recorded, in order.
    let entries: [Entry]
    /// Entries of compiler-generated functions (thunks) that were left out.
    let generatedEntries: Int
    /// Entries of functions outside the library (this tool, the test server).
    let outsideEntries: Int
    /// Entries whose address had no symbol.
    let unknownEntries: Int
    let threadNames: [UInt32: String]
    let dropped: Int

    /// The calls up to the value that `level` keeps, optionally on one side only.
    func untilValue(_ level: Level, _ side: Side? = nil) -> [Call] {
        let kept = calls.filter { !$0.afterValue && level.keeps($0) && (side == nil || $0.side == side) }
        guard level == .spine else { return kept }
        let callers = Set(
            calls.filter { !$0.afterValue && level.keeps($0) }.compactMap { call in
                call.caller.flatMap { $0 != call.place && $0.kind == .library ? $0 : nil }
            })
        return kept.filter { callers.contains($0.place) }
    }
}
