import Foundation

/// The `curl` command making the same requests, as a reference for what the machine can do:
/// one process, one connection reused for sequential requests, `--parallel` for concurrency.
final class CurlReference {
    /// The path of the `curl` executable.
    let executable: String
    private let directory: URL

    /// `curl` from `PATH`, or `nil` when it is not installed.
    static func find() -> CurlReference? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/curl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return CurlReference(executable: candidate) }
        }
        return nil
    }

    private init(executable: String) {
        self.executable = executable
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-bench-\(getpid())", isDirectory: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A contender that fetches `url` `count` times, `parallel` at a time (`nil`: one after the other).
    func contender(url: URL, count: Int, parallel: Int?) throws -> Contender {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("urls-\(count)-\(parallel ?? 1).txt")
        let line = "url = \"\(url.absoluteString)\"\n"
        try Data(String(repeating: line, count: count).utf8).write(to: config)
        var arguments = ["curl", "--silent", "--fail", "--noproxy", "*", "--config", config.path]
        if let parallel {
            arguments += ["--parallel", "--parallel-immediate", "--parallel-max", String(parallel)]
        }
        let executable = executable
        return Contender(name: "curl", inProcess: false) {
            try Self.run(executable, arguments)
        }
    }

    /// Runs the command with its output discarded.
    /// - Returns: the CPU seconds the child used.
    private static func run(_ executable: String, _ arguments: [String]) throws(BenchError) -> Double {
        let child = try ChildProcess(executable, arguments, input: .null, output: .null, errorToNull: true)
        let (succeeded, cpuSeconds) = try child.wait()
        guard succeeded else { throw .process("curl failed (\(arguments.suffix(6).joined(separator: " ")))") }
        return cpuSeconds
    }
}
