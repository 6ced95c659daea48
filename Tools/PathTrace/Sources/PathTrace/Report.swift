/// Prints the counts and the path of one scenario.
struct Report {
    let scenario: Scenario
    let paths: [CallPath]
    /// The level whose folders, hops and steps are listed.
    let level: Level
    /// Whether to list every call under its step.
    let listsCalls: Bool
    /// Whether to list the steps of every run, not only the first.
    let listsAllRuns: Bool
    /// Whether to print the counts only.
    let countsOnly: Bool

    func render() -> String {
        guard let path = paths.first else { return "" }
        var out = "== \(scenario.name): \(scenario.title)\n\n"
        out += "Counts from the call to the value, run 1 of \(paths.count):\n"
        out += "  " + pad("level", 8) + pad("part", 17) + PathMetrics.columnTitles.map { pad($0, 10) }.joined() + "\n"
        let parts: [(String, Side?)] = [
            ("whole path", nil), ("above the seam", .above), ("transport's own", .transport),
        ]
        var variations: [String] = []
        for level in Level.allCases.reversed() {
            for (name, side) in parts {
                let runs = paths.map { PathMetrics($0, level, side).columns }
                out += "  " + pad(level.rawValue, 8) + pad(name, 17) + runs[0].map { pad("\($0)", 10) }.joined() + "\n"
                var ranges: [String] = []
                for (column, title) in PathMetrics.columnTitles.enumerated() {
                    let values = runs.map { $0[column] }
                    if let low = values.min(), let high = values.max(), low != high {
                        ranges.append("\(title) \(low)-\(high)")
                    }
                }
                if !ranges.isEmpty {
                    variations.append("    \(level.rawValue), \(name): " + ranges.joined(separator: ", "))
                }
            }
        }
        for level in Level.allCases.reversed() { out += "  \(pad(level.rawValue, 8))\(level.summary)\n" }
        let after = path.calls.filter(\.afterValue)
        let afterFiles = Set(after.map(\.place.path)).sorted()
        out += "  after the value (not counted): \(after.count) calls"
        out += afterFiles.isEmpty ? "\n" : " in \(afterFiles.joined(separator: ", "))\n"
        out += "  left out: \(path.generatedEntries) entries of compiler-generated code (thunks), "
        out += "\(path.outsideEntries) outside the library (tool, test server), \(path.unknownEntries) unsymbolized"
        out += path.dropped > 0 ? ", \(path.dropped) DROPPED (buffer full)\n" : "\n"
        out += stability()
        if paths.count > 1 {
            out +=
                variations.isEmpty
                ? "  no count differs between the \(paths.count) runs\n"
                : "  counts that differ between the \(paths.count) runs (min-max):\n"
                    + variations.joined(separator: "\n") + "\n"
        }
        out += "  columns: a run is consecutive calls in one file; a step is consecutive calls and returns in one\n"
        out += "  folder; returns are the steps that go back into a caller (a function already open), counted even\n"
        out += "  when that caller then calls nothing further; 1st-hops and 1st-back count changes of folder, and\n"
        out += "  those into a folder already left, over the files in the order each is first entered; threads\n"
        out += "  counts changes of thread between consecutive calls.\n"
        if countsOnly { return out }
        out += "\n"

        let whole = PathMetrics(path, level)
        let above = PathMetrics(path, level, .above)
        out += "Steps in each folder at the \(level.rawValue) level: whole path / above the seam / times entered above"
        out += " the seam in first-entry order:\n"
        let aboveEntries = Dictionary(above.folderEntries.map { ($0.folder, $0.entries) }, uniquingKeysWith: +)
        let firstEntryCounts = Dictionary(
            above.firstEntryFolderEntries.map { ($0.folder, $0.entries) }, uniquingKeysWith: +)
        for (folder, entries) in whole.folderEntries {
            out +=
                "  " + pad(folder, 28)
                + "\(entries) / \(aboveEntries[folder] ?? 0) / \(firstEntryCounts[folder] ?? 0)\n"
        }
        out += "\nSteps above the seam at the \(level.rawValue) level, run 1: \(above.steps.count) steps, "
        out += "\(above.returns) returns (* = a return into a caller):\n"
        out += stepLine(above) + "\n"
        out += "\nSteps of the whole path at the \(level.rawValue) level, run 1: \(whole.steps.count) steps, "
        out += "\(whole.returns) returns:\n" + stepLine(whole) + "\n"
        out += "\nFiles in the order first entered, above the seam, at the \(level.rawValue) level:\n"
        out += firstEntries(above) + "\n"

        out += "\nThreads (calls up to the value at the every level; the name is the kernel's, 15 characters):\n"
        let byThread = Dictionary(grouping: path.untilValue(.every), by: \.thread)
        for thread in byThread.keys.sorted() {
            let calls = byThread[thread] ?? []
            let name = path.threadNames[thread].flatMap { $0.isEmpty ? nil : $0 } ?? "(unnamed)"
            out += "  " + pad("t\(thread)", 5) + pad(name, 17) + pad("\(calls.count) calls", 11)
            out += "first " + (calls.first.map { Self.shorten($0.function) } ?? "") + "\n"
        }
        for (index, run) in paths.enumerated() where index > 0 && listsAllRuns {
            let above = PathMetrics(run, level, .above)
            out += "\nSteps above the seam at the \(level.rawValue) level, run \(index + 1): "
            out += "\(above.steps.count) steps, \(above.returns) returns:\n" + stepLine(above) + "\n"
        }
        for (index, run) in paths.enumerated() where index == 0 || listsAllRuns {
            out += "\nSteps of the whole path at the \(level.rawValue) level, run \(index + 1)"
            out += " (* a return; side: A above the seam, T transport; <- a return into that function):\n"
            out += steps(PathMetrics(run, level))
        }
        return out
    }

    private func steps(_ metrics: PathMetrics) -> String {
        var out =
            "  " + pad("#", 5) + pad("side", 5) + pad("thread", 7) + pad("folder", 24) + pad("files", 44) + "calls\n"
        for (number, step) in metrics.steps.enumerated() {
            let calls = step.items.map(\.call)
            let sides = Set(calls.map { $0.side == .above ? "A" : "T" }).sorted().joined(separator: "+")
            let threads = Set(calls.map { "t\($0.thread)" }).sorted().joined(separator: ",")
            var files: [String] = []
            for call in calls where !files.contains(call.place.fileName) { files.append(call.place.fileName) }
            out += "  " + pad("\(step.isReturn ? "*" : "")\(number + 1)", 5) + pad(sides, 5) + pad(threads, 7)
            out += pad(step.folder, 24) + pad(files.joined(separator: ", "), 44)
            out += pad("\(step.items.filter { !$0.isReturn }.count)", 3) + functions(step) + "\n"
            if listsCalls {
                for item in step.items {
                    out += "        t\(item.call.thread) \(item.call.side == .above ? "A" : "T") "
                    out += item.isReturn ? "<- " : "   "
                    out += "\(item.call.place.fileName): \(item.call.function)\n"
                }
            }
        }
        return out
    }

    /// Whether the repeated runs took the same path (files in the same order) as the first.
    private func stability() -> String {
        guard paths.count > 1, let first = paths.first else { return "" }
        var rows: [String] = []
        for level in Level.allCases.reversed() {
            for (name, side) in [("whole path", nil), ("above the seam", Side.above)] {
                let reference = PathMetrics(first, level, side)
                let same = paths.dropFirst().filter { PathMetrics($0, level, side).samePath(as: reference) }
                rows.append("\(level.rawValue) \(name) \(same.count + 1)/\(paths.count)")
            }
        }
        return "  runs with the same steps as run 1: " + rows.joined(separator: ", ") + "\n"
    }

    private func firstEntries(_ metrics: PathMetrics) -> String {
        var out: [String] = []
        var seen = Set<String>()
        var previous: String?
        for (number, place) in metrics.firstEntries.enumerated() {
            let mark = place.folder != previous && seen.contains(place.folder) ? "*" : " "
            out.append("  " + pad("\(number + 1)", 4) + mark + pad(place.folder, 24) + place.fileName)
            seen.insert(place.folder)
            previous = place.folder
        }
        return out.joined(separator: "\n")
    }

    /// The steps in a line: each step's folder, `*` before a return.
    private func stepLine(_ metrics: PathMetrics) -> String {
        let parts = metrics.steps.map(\.label)
        var lines: [String] = []
        var line = " "
        for part in parts {
            let piece = line == " " ? " " + part : " > " + part
            if line.count + piece.count > 110 {
                lines.append(line)
                line = "   > " + part
            } else {
                line += piece
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The distinct functions of a step, shortened, `<-` before a return into one.
    private func functions(_ step: Step) -> String {
        var names: [String] = []
        for item in step.items {
            let name = (item.isReturn ? "<- " : "") + Self.shorten(item.call.function)
            if names.last != name { names.append(name) }
        }
        let shown = names.prefix(4).joined(separator: "; ")
        return names.count > 4 ? shown + "; +\(names.count - 4)" : shown
    }

    /// Without the "(1) await resume partial function for" prefixes, and at most 70 characters.
    static func shorten(_ function: String) -> String {
        var name = function
        if name.hasPrefix("("), let close = name.firstIndex(of: ")"), name.index(after: close) < name.endIndex {
            name = String(name[name.index(close, offsetBy: 2)...])
        }
        name = name.replacingOccurrences(of: "await resume partial function for ", with: "resume ")
        name = name.replacingOccurrences(of: "suspend resume partial function for ", with: "resume ")
        return name.count > 70 ? String(name.prefix(67)) + "..." : name
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
