// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of the `EndpointKitOutboxChild` executable (built next to the tests), its output read
/// line by line as it comes, killable with SIGKILL at any moment.
final class OutboxChild: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    private let readerDone = DispatchSemaphore(value: 0)

    /// The child executable: next to the test binary (Linux, also under `--scratch-path`), or next
    /// to the `.xctest` bundle (macOS).
    static func executable() throws -> URL {
        var directories: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        directories.append(Bundle(for: OutboxChild.self).bundleURL.deletingLastPathComponent())
        let candidates = directories.map { $0.appendingPathComponent("EndpointKitOutboxChild") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("EndpointKitOutboxChild is not built next to the tests (swift build --build-tests builds it)")
        }
        return found
    }

    /// Starts `executable` with `arguments`; `onLine` sees each line of its output, on a thread of
    /// its own, as it arrives.
    init(_ executable: URL, arguments: [String], onLine: (@Sendable (String) -> Void)? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.withLock { lines.append(line) }
                    onLine?(line)
                }
            }
            readerDone.signal()
        }
        thread.start()
    }

    /// Kills the child with SIGKILL, if it is still running.
    func kill() {
        guard process.isRunning else { return }
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
        _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
    }

    /// Waits until the child has exited and its output is read; kills it after `timeout` seconds.
    /// - Returns: whether it exited by itself (or by an earlier kill) in time.
    @discardableResult
    func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let inTime = !process.isRunning
        if !inTime { kill() }
        process.waitUntilExit()
        _ = readerDone.wait(timeout: .now() + 10)
        return inTime
    }

    /// Whether it ended by a signal (SIGKILL) rather than by exiting.
    var wasKilled: Bool { process.terminationReason == .uncaughtSignal }

    /// Its exit status (or the signal that ended it).
    var status: Int32 { process.terminationStatus }

    /// The lines it printed.
    var output: [String] { lock.withLock { lines } }

    /// The numbers of the `enqueued N` lines: the entries whose enqueue returned.
    var enqueued: [Int] { output.compactMap { $0.hasPrefix("enqueued ") ? Int($0.dropFirst(9)) : nil } }
}
#endif
