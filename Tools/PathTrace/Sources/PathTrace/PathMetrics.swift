/// Consecutive calls in one file: what a reader following the request reads in one go.
struct Step: Sendable {
    let place: Place
    let calls: [Call]
}

/// The counts of one sequence of library calls.
///
/// - a **step** is a run of consecutive calls in the same file;
/// - a **hop** is a change of folder between consecutive steps (folders as ``Place/folder``);
/// - a **back-hop** is a hop into a folder that an earlier step was already in (and so had left);
/// - the **first-entry** hops and back-hops are the same counts over the files in the order each
///   is first entered (each file once): they ignore going back to a file already read, and so
///   measure whether the folders are laid out in the order the request reaches them.
struct PathMetrics: Sendable {
    let calls: Int
    let steps: [Step]
    let files: Int
    let folders: Int
    let hops: Int
    let backHops: Int
    /// How many times each folder was entered (its runs of steps), in order of first entry.
    let folderEntries: [(folder: String, entries: Int)]
    /// Changes of thread between consecutive calls.
    let threadSwitches: Int
    /// The files in the order each is first entered.
    let firstEntries: [Place]
    let firstEntryHops: Int
    let firstEntryBackHops: Int
    /// How many times each folder is entered in the first-entry order.
    let firstEntryFolderEntries: [(folder: String, entries: Int)]

    init(_ calls: [Call]) {
        var steps: [Step] = []
        var current: [Call] = []
        for call in calls {
            if let last = current.last, last.place != call.place {
                steps.append(Step(place: last.place, calls: current))
                current = []
            }
            current.append(call)
        }
        if let last = current.last { steps.append(Step(place: last.place, calls: current)) }

        var seenFiles = Set<Place>()
        var firstEntries: [Place] = []
        for step in steps where !seenFiles.contains(step.place) {
            seenFiles.insert(step.place)
            firstEntries.append(step.place)
        }
        let folderRuns = Self.folderRuns(steps.map(\.place.folder))
        let firstEntryRuns = Self.folderRuns(firstEntries.map(\.folder))
        var switches = 0
        for (earlier, later) in zip(calls, calls.dropFirst()) where earlier.thread != later.thread { switches += 1 }

        self.calls = calls.count
        self.steps = steps
        files = firstEntries.count
        folders = Set(firstEntries.map(\.folder)).count
        hops = folderRuns.hops
        backHops = folderRuns.backHops
        folderEntries = folderRuns.entries
        threadSwitches = switches
        self.firstEntries = firstEntries
        firstEntryHops = firstEntryRuns.hops
        firstEntryBackHops = firstEntryRuns.backHops
        firstEntryFolderEntries = firstEntryRuns.entries
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

    /// The numbers of the table, in its column order.
    var columns: [Int] {
        [calls, steps.count, files, folders, hops, backHops, firstEntryHops, firstEntryBackHops, threadSwitches]
    }

    /// The table's column titles.
    static let columnTitles = ["calls", "steps", "files", "folders", "hops", "back", "1st-hops", "1st-back", "threads"]

    /// Whether two runs took the same path (the same files in the same order).
    func samePath(as other: PathMetrics) -> Bool {
        steps.map(\.place) == other.steps.map(\.place)
    }
}
