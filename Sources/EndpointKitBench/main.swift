import Foundation

// endpointkit-bench: EndpointKit against hand-written baselines, measured side by side in one run.
// See Docs/Performance.md. The hidden `--serve` flag runs the benchmark server (the child process).

let options: BenchOptions
do {
    options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(error)\n\(BenchOptions.usage)\n".utf8))
    exit(2)
}
if options.help {
    print(BenchOptions.usage)
    exit(0)
}
if options.serve {
    exit(BenchServer.serve())
}
exit(await BenchRunner.run(options))
