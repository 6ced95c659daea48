/// Consecutive calls in one file.
struct Run: Sendable {
    let place: Place
    let calls: [Call]
}

/// What a reader following the request reads in one go: consecutive calls in one folder, and the
/// returns into open functions of that folder on the way.
struct Step: Sendable {
    /// One call entered, or one return into an open call (its function gets control back).
    struct Item: Sendable {
        let call: Call
        let isReturn: Bool
    }

    let folder: String
    /// Whether the step starts by going back into a caller: a function of the folder that was
    /// already open (on its thread's stack, or an async function resuming after an `await`).
    let isReturn: Bool
    var items: [Item]

    /// The folder, after `*` for a return.
    var label: String { (isReturn ? "*" : "") + folder }
}

/// The counts of one traced request at one level, on one side of the seam or both.
///
/// - a **run** is a run of consecutive calls in the same file;
/// - a **step** is a run of consecutive calls and returns in the same folder (folders as
///   ``Place/folder``); a **return** is a step that starts by going back into a caller, a function
///   already open, whether that caller then calls something else or returns in turn: when `A`
///   calls `B` in another folder and `B` returns, going back to `A` is a step of its own;
/// - the **first-entry** hops and back-hops count changes of folder over the files in the order
///   each is first entered (each file once): they ignore going back to a file already read, and so
///   measure whether the folders are laid out in the order the request reaches them.
struct PathMetrics: Sendable {
    let calls: Int
    let runs: [Run]
    let steps: [Step]
    let files: Int
    let folders: Int
    let returns: Int
    /// Changes of thread between consecutive calls.
    let threadSwitches: Int
    /// The files in the order each is first entered.
    let firstEntries: [Place]
    let firstEntryHops: Int
    let firstEntryBackHops: Int
    /// How many times each folder is entered in the first-entry order.
    let firstEntryFolderEntries: [(folder: String, entries: Int)]

    init(_ path: CallPath, _ level: Level, _ side: Side? = nil) {
        let calls = path.untilValue(level, side)
        var runs: [Run] = []
        var current: [Call] = []
        for call in calls {
            if let last = current.last, last.place != call.place {
                runs.append(Run(place: last.place, calls: current))
                current = []
            }
            current.append(call)
        }
        if let last = current.last { runs.append(Run(place: last.place, calls: current)) }

        var seenFiles = Set<Place>()
        var firstEntries: [Place] = []
        for run in runs where !seenFiles.contains(run.place) {
            seenFiles.insert(run.place)
            firstEntries.append(run.place)
        }
        let firstEntryRuns = Self.folderRuns(firstEntries.map(\.folder))
        var switches = 0
        for (earlier, later) in zip(calls, calls.dropFirst()) where earlier.thread != later.thread { switches += 1 }
        let steps = Self.steps(path, kept: Set(calls.map(\.sequence)))

        self.calls = calls.count
        self.runs = runs
        self.steps = steps
        files = firstEntries.count
        folders = Set(firstEntries.map(\.folder)).count
        returns = steps.filter(\.isReturn).count
        threadSwitches = switches
        self.firstEntries = firstEntries
        firstEntryHops = firstEntryRuns.hops
        firstEntryBackHops = firstEntryRuns.backHops
        firstEntryFolderEntries = firstEntryRuns.entries
    }

    /// The steps through the calls in `kept`, with the returns between them.
    ///
    /// Only entries are recorded; the returns are read off the stacks. Each call carries the frames
    /// open under it on its thread. Between the previous call of a thread and the next, the frames
    /// of the earlier one that are no longer open have returned: each of them, and then the
    /// innermost frame still open (the one that makes the next call), got control back. Every
    /// such frame whose call is kept is a return into its folder, whether or not it calls anything
    /// afterwards. An async function resuming after an `await` is a return into it as well.
    ///
    /// A reader follows one thread's work to its end before another's: the calls and returns of a
    /// thread while its stack stays open (each call shares an open frame with the one before) are
    /// one stretch, and the stretches are read whole, in the order they started. So the steps do
    /// not depend on how two threads happened to interleave (the transport's completion posting to
    /// the awaiting task while that task is still returning from the send). Every entry recorded
    /// shows returns, those of this tool and those after the value included (they are not counted,
    /// but the returns before them are).
    private static func steps(_ path: CallPath, kept: Set<Int>) -> [Step] {
        let bySequence = Dictionary(path.calls.map { ($0.sequence, $0) }, uniquingKeysWith: { first, _ in first })
        // Each item with the first entry of its stretch, in the order they happened.
        var items: [(stretch: Int, item: Step.Item)] = []
        var previous: [UInt32: (entry: CallPath.Entry, stretch: Int)] = [:]
        for entry in path.entries {
            var stretch = entry.sequence
            if let (earlier, earlierStretch) = previous[entry.thread] {
                let open = Set(entry.openFrames)
                let stack = [earlier.sequence] + earlier.openFrames
                if stack.contains(where: open.contains) { stretch = earlierStretch }
                for (depth, frame) in stack.enumerated() {
                    if depth > 0, kept.contains(frame), let returnedInto = bySequence[frame] {
                        items.append((earlierStretch, Step.Item(call: returnedInto, isReturn: true)))
                    }
                    if open.contains(frame) { break }
                }
            }
            previous[entry.thread] = (entry, stretch)
            if kept.contains(entry.sequence), let call = bySequence[entry.sequence] {
                items.append((stretch, Step.Item(call: call, isReturn: call.isResumption)))
            }
        }
        let ordered = items.enumerated().sorted {
            ($0.element.stretch, $0.offset) < ($1.element.stretch, $1.offset)
        }
        var steps: [Step] = []
        for item in ordered.map(\.element.item) {
            if steps.last?.folder == item.call.place.folder {
                steps[steps.count - 1].items.append(item)
            } else {
                steps.append(Step(folder: item.call.place.folder, isReturn: item.isReturn, items: [item]))
            }
        }
        return steps
    }

    /// Hops, back-hops and entries per folder of a sequence of folders.
    private static func folderRuns(
        _ folders: [String]
    ) -> (hops: Int, backHops: Int, entries: [(folder: String, entries: Int)]) {
        var seen = Set<String>()
        var order: [String] = []
        var entries: [String: Int] = [:]
        var hops = 0
        var backHops = 0
        var previous: String?
        for folder in folders where folder != previous {
            if previous != nil {
                hops += 1
                if seen.contains(folder) { backHops += 1 }
            }
            if !seen.contains(folder) { order.append(folder) }
            seen.insert(folder)
            entries[folder, default: 0] += 1
            previous = folder
        }
        return (hops, backHops, order.map { ($0, entries[$0] ?? 0) })
    }

    /// How many steps are in each folder, in order of first entry.
    var folderEntries: [(folder: String, entries: Int)] {
        var order: [String] = []
        var entries: [String: Int] = [:]
        for step in steps {
            if entries[step.folder] == nil { order.append(step.folder) }
            entries[step.folder, default: 0] += 1
        }
        return order.map { ($0, entries[$0] ?? 0) }
    }

    /// The numbers of the table, in its column order.
    var columns: [Int] {
        [calls, runs.count, files, folders, steps.count, returns, firstEntryHops, firstEntryBackHops, threadSwitches]
    }

    /// The table's column titles.
    static let columnTitles = [
        "calls", "runs", "files", "folders", "steps", "returns", "1st-hops", "1st-back", "threads",
    ]

    /// Whether two runs took the same path (the same folders in the same order, the same returns).
    func samePath(as other: PathMetrics) -> Bool {
        steps.map(\.label) == other.steps.map(\.label)
    }
}
