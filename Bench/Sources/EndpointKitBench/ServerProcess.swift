import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The benchmark server in a child process: this executable started again with `--serve`, so the
/// server's threads do not share the client's process, allocator or Dispatch pools.
final class ServerProcess {
    /// The port it listens on, on 127.0.0.1.
    let port: UInt16
    private let child: ChildProcess
    /// The write end of the child's standard input; closing it stops the child.
    private var inputFD: Int32

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// The child's process id.
    var processIdentifier: Int32 { child.pid }

    /// Starts the child and waits (at most `timeout` seconds) for it to announce its port.
    init(timeout: Double = 30) throws(BenchError) {
        let input = try ChildProcess.makePipe()
        let output = try ChildProcess.makePipe()
        defer {
            close(input.read)
            close(output.read)
        }
        let executable = Self.executablePath()
        do {
            child = try ChildProcess(
                executable, [executable, "--serve"], input: .descriptor(input.read), output: .descriptor(output.write))
        } catch {
            close(input.write)
            close(output.write)
            throw error
        }
        close(output.write)
        inputFD = input.write
        guard let line = Self.readLine(output.read, timeout: timeout), line.hasPrefix(BenchServer.portPrefix),
            let port = UInt16(line.dropFirst(BenchServer.portPrefix.count))
        else {
            close(input.write)
            child.stop(within: 1)
            throw .server("the child server did not announce a port within \(Int(timeout)) s")
        }
        self.port = port
    }

    deinit { stop() }

    /// Closes the child's standard input, which stops it, and waits briefly for it to exit.
    func stop() {
        guard inputFD >= 0 else { return }
        close(inputFD)
        inputFD = -1
        child.stop(within: 5)
    }

    /// This executable's path: `/proc/self/exe` resolved on Linux, else the first argument.
    static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Reads one line from `fd`, waiting at most `timeout` seconds in total.
    private static func readLine(_ fd: Int32, timeout: Double) -> String? {
        let stopwatch = Stopwatch()
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while stopwatch.wallSeconds < timeout {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, (timeout - stopwatch.wallSeconds) * 1000))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
