import Foundation

// path-trace: runs each scenario's warm-up request, records every function the next request
// enters (SanitizerCoverage callbacks, see CPathTraceRecorder), maps each to its file of
// Sources/EndpointKit and prints the files, the steps and the returns into callers. See README.md.

let usage = """
    usage: path-trace [--scenario plain|cache-retry|all] [--level every|source|reader|spine] [--repeat N]
                      [--settle-ms N] [--calls] [--all-runs] [--counts]
      --scenario   which request to trace (all by default)
      --repeat     traced requests per scenario after the warm-up (3 by default); the first is listed,
                   the others are compared with it
      --settle-ms  how long recording goes on after the value is back (300 by default), to see what the
                   request leaves running; that part is listed, not counted
      --level      the level whose folders and steps are listed (source by default); the counts are
                   printed for all four
      --calls      list every call and every return under its step
      --all-runs   list the steps of every run, not only the first
      --counts     print the counts only
    Build it with the coverage flags: bash Tools/PathTrace/path-trace.sh [options]
    """

var scenarios = Scenario.all
var repeats = 3
var settleMilliseconds = 300
var listsCalls = false
var listsAllRuns = false
var countsOnly = false
var level = Level.source
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--scenario":
        let name = arguments.popFirst() ?? ""
        scenarios = name == "all" ? Scenario.all : Scenario.all.filter { $0.name == name }
        if scenarios.isEmpty {
            FileHandle.standardError.write(Data("unknown scenario '\(name)'\n\(usage)\n".utf8))
            exit(2)
        }
    case "--repeat":
        repeats = max(1, Int(arguments.popFirst() ?? "") ?? 3)
    case "--settle-ms":
        settleMilliseconds = max(0, Int(arguments.popFirst() ?? "") ?? 300)
    case "--level":
        let name = arguments.popFirst() ?? ""
        guard let chosen = Level(rawValue: name) else {
            FileHandle.standardError.write(Data("unknown level '\(name)'\n\(usage)\n".utf8))
            exit(2)
        }
        level = chosen
    case "--calls":
        listsCalls = true
    case "--all-runs":
        listsAllRuns = true
    case "--counts":
        countsOnly = true
    default:
        FileHandle.standardError.write(Data("\(usage)\n".utf8))
        exit(argument == "--help" || argument == "-h" ? 0 : 2)
    }
}

guard Recorder.isInstrumented else {
    FileHandle.standardError.write(
        Data(
            ("path-trace: this build has no coverage instrumentation; build and run it with "
                + "bash Tools/PathTrace/path-trace.sh\n").utf8))
    exit(2)
}

do {
    let image = try ExecutableImage.current()
    let builder = PathBuilder(image: image, symbolizer: try Symbolizer.locate(executable: image.path))
    print("path-trace: \(Recorder.instrumentedFunctionCount) instrumented functions in \(image.path)")
    print("symbolizer: \(builder.symbolizer.symbolizer), demangler: \(builder.symbolizer.demangler)")
    print("counting: a step is a run of calls and returns in one folder (Core/<stage>, Features/<concern>,")
    print("Transports/<stack>, Support, or Features / Transports for the files directly in them); a return")
    print("is a step that goes back into a caller, a function already open, even one that then calls nothing.\n")
    for scenario in scenarios {
        let recordings = try await scenario.run(repeats, .milliseconds(settleMilliseconds))
        let paths = try recordings.map { try builder.build($0) }
        print(
            Report(
                scenario: scenario, paths: paths, level: level, listsCalls: listsCalls, listsAllRuns: listsAllRuns,
                countsOnly: countsOnly
            ).render())
    }
} catch {
    FileHandle.standardError.write(Data("path-trace: \(error)\n".utf8))
    exit(1)
}
