import Foundation

// endpointkit-bench: EndpointKit against hand-written baselines, measured side by side in one run.
// See Docs/Performance.md. The hidden `--serve` flag runs the benchmark server (the child process),
// `--instructions-child` the requests of one client under callgrind (InstructionsMode).

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
if options.impairedTransfers {
    exit(ImpairedTransferMode.run(options))
}
if options.instructions {
    // Starts nginx and the callgrind children, and waits for them on this thread.
    exit(InstructionsMode.run(options))
}
if options.soak {
    // Blocks this thread; the soak's callbacks run on private queues.
    exit(SoakMode.run(options))
}

// The run happens on the global executor while the main thread waits on a semaphore, instead of
// an async top level: that parks the main thread in `dispatch_main` (pthread_exit), which
// valgrind 3.19 cannot follow, and `valgrind --tool=callgrind endpointkit-bench` is how the
// library gets profiled. Nothing here needs the main queue.
let exitStatus = ExitStatus()
let finished = DispatchSemaphore(value: 0)
Task.detached {
    #if os(Linux) && canImport(CCurlShimAPI)
    if let client = options.instructionsChild {
        exitStatus.set(await InstructionsChild.run(client, options))
        finished.signal()
        return
    }
    #endif
    exitStatus.set(await BenchRunner.run(options))
    finished.signal()
}
finished.wait()
exit(exitStatus.value)
