import EndpointKit
import Foundation
import XCTest

/// ConnectivityMonitor on Linux: outside and inside a network namespace that has only loopback.
final class ConnectivityTests: XCTestCase {
    /// The demo binary built next to the test bundle; it prints what the probe sees.
    private func demoBinary() throws -> URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? "")
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("endpointkit-demo"),
            bundle.deletingLastPathComponent().appendingPathComponent("endpointkit-demo"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("endpointkit-demo is not built next to the tests (run swift build --build-tests).")
        }
        return found
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func testThatANamespaceWithOnlyLoopbackIsOffline() throws {
        #if os(Linux)
        let demo = try demoBinary()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("unshare is not installed.")
        }
        let isolated = try run("/usr/bin/unshare", ["-n", demo.path, "--connectivity"])
        guard isolated.status == 0 else {
            throw XCTSkip("network namespaces are not permitted here (unshare exited \(isolated.status)).")
        }
        XCTAssertEqual(isolated.output, "offline")
        let outside = try run(demo.path, ["--connectivity"])
        XCTAssertEqual(outside.output, ConnectivityMonitor.probe() == .online ? "online" : "offline")
        #else
        throw XCTSkip("The Linux probe is only used on Linux.")
        #endif
    }

    func testThatChangesArePublishedToObserversAndTheSequence() async {
        let status = Locked(ConnectivityMonitor.Status.online)
        let monitor = ConnectivityMonitor(pollingInterval: 0.05) { status.value }
        XCTAssertEqual(monitor.status, .online)
        let observed = expectation(description: "observer")
        monitor.addObserver(queue: DispatchQueue(label: "observer")) { value in
            if value == .offline { observed.fulfill() }
        }
        var iterator = monitor.updates.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, .online)
        status.value = .offline
        let second = await iterator.next()
        XCTAssertEqual(second, .offline)
        await fulfillment(of: [observed], timeout: 5)
    }
}
