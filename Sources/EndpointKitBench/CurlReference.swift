import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw .process("could not start curl: error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .process("wait4 failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw .process("curl failed with wait status \(status)")
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
