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
    private let process: Process
    private let input: Pipe

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// The child's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Starts the child and waits (at most `timeout` seconds) for it to announce its port.
    init(timeout: TimeInterval = 30) throws(BenchError) {
        let executable = Self.executablePath()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--serve"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw .server("could not start \(executable) --serve: \(error)")
        }
        self.process = process
        self.input = input
        guard let line = Self.readLine(output.fileHandleForReading.fileDescriptor, timeout: timeout),
            line.hasPrefix(BenchServer.portPrefix), let port = UInt16(line.dropFirst(BenchServer.portPrefix.count))
        else {
            process.terminate()
            throw .server("the child server did not announce a port within \(Int(timeout)) s")
        }
        self.port = port
    }

    deinit { stop() }

    /// Closes the child's standard input, which stops it, and waits briefly for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
    }

    /// This executable's path: `/proc/self/exe` resolved on Linux, else the first argument.
    private static func executablePath() -> String {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }

    /// Reads one line from `fd`, waiting at most `timeout` seconds in total.
    private static func readLine(_ fd: Int32, timeout: TimeInterval) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            guard read(fd, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
