#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`.
///
/// Foundation's `Process` is not used: under valgrind it fails to start children (it trips over
/// valgrind's reserved descriptors), and its `waitUntilExit` polls a run loop, adding up to
/// 50 ms to a timed curl run.
struct ChildProcess {
    /// What the child's standard input or output is connected to.
    enum Stream {
        /// `/dev/null`.
        case null
        /// The given descriptor, duplicated onto the stream in the child.
        case descriptor(Int32)
    }

    /// The child's process id.
    let pid: pid_t

    /// Starts `executable` with `arguments` (the first is the program name); standard error is
    /// inherited unless `errorToNull`.
    init(
        _ executable: String, _ arguments: [String], input: Stream, output: Stream, errorToNull: Bool = false
    ) throws(BenchError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(input, Int32(0)), (output, Int32(1))] {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        if errorToNull { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw .process("could not start \(executable): error \(spawned)") }
        self.pid = pid
    }

    /// Waits for the child to exit.
    /// - Returns: whether it exited with status 0, and the CPU seconds it used.
    func wait() throws(BenchError) -> (succeeded: Bool, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw .process("wait4 failed: errno \(errno)") }
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // WIFEXITED && WEXITSTATUS == 0, which Swift does not import.
        let succeeded = status & 0x7F == 0 && (status >> 8) & 0xFF == 0
        return (succeeded, seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }

    /// Waits at most `seconds` for the child to exit, then sends it `SIGTERM` and reaps it.
    func stop(within seconds: Double) {
        let stopwatch = Stopwatch()
        var status: Int32 = 0
        while stopwatch.wallSeconds < seconds {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { return }
            usleep(10_000)
        }
        kill(pid, SIGTERM)
        _ = waitpid(pid, &status, 0)
    }

    /// Waits at most `seconds` for the child to exit; if it has not, kills it (`SIGKILL`) and reaps it.
    /// - Returns: whether it exited with status 0 in time, or `nil` when it had to be killed (or
    ///   `stopping()` turned true first, checked every 10 ms).
    func wait(timeout seconds: Double, stopping: () -> Bool = { false }) -> Bool? {
        let stopwatch = Stopwatch()
        var status: Int32 = 0
        while stopwatch.wallSeconds < seconds, !stopping() {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status & 0x7F == 0 && (status >> 8) & 0xFF == 0 }
            if reaped < 0 && errno != EINTR { return nil }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return nil
    }

    /// A pipe whose descriptors are closed on `exec`, so children get only what is duplicated
    /// onto their standard streams.
    static func makePipe() throws(BenchError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .process("pipe failed: errno \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
