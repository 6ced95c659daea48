// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
import XCTest

/// ConnectivityMonitor on Linux, inside network namespaces built to be online or offline.
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

    /// Runs the demo's probe in a new network namespace, after `setup` (arguments to `ip`, run in
    /// that namespace). What the probe should see is known from how the namespace was built, not
    /// from the probe under test. Throws `XCTSkip` where the namespace cannot be built: call it
    /// outside `XCTAssert...`, which would record the skip as a failure.
    private func probeInNamespace(after setup: [[String]]) throws -> String {
        #if os(Linux)
        let demo = try demoBinary()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("unshare is not installed.")
        }
        let ipPaths = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        guard setup.isEmpty || ipPaths.contains(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("ip (iproute2) is not installed.")
        }
        let ip = ipPaths.first(where: FileManager.default.isExecutableFile(atPath:)) ?? "ip"
        // Exit status 90: the namespace could not be set up as asked (no veth support, no IPv6...).
        let commands = setup.map { ([ip] + $0).joined(separator: " ") + " || exit 90" }
        let script = (commands + [#"exec "$0" --connectivity"#]).joined(separator: "\n")
        let result = try run("/usr/bin/unshare", ["-n", "/bin/sh", "-c", script, demo.path])
        guard result.status == 0 else {
            throw XCTSkip(
                result.status == 90
                    ? "could not set up the namespace: \(setup)"
                    : "network namespaces are not permitted here (unshare exited \(result.status)).")
        }
        return result.output
        #else
        throw XCTSkip("The Linux probe is only used on Linux.")
        #endif
    }

    /// A veth pair, both ends up (so the first has a carrier), the first with `address`.
    private func interface(_ address: [String]) -> [[String]] {
        [
            ["link", "add", "ek0", "type", "veth", "peer", "name", "ek1"], ["link", "set", "ek1", "up"],
            ["link", "set", "ek0", "up"], address + ["dev", "ek0"],
        ]
    }

    func testThatANamespaceWithOnlyLoopbackIsOffline() throws {
        let loopbackOnly = try probeInNamespace(after: [])
        XCTAssertEqual(loopbackOnly, "offline")
    }

    func testThatAnInterfaceIsOnlineWithADefaultRouteAndOfflineWithout() throws {
        let up = interface(["addr", "add", "10.77.0.2/24"])
        let unrouted = try probeInNamespace(after: up)
        XCTAssertEqual(unrouted, "offline", "an address but no default route")
        let routed = try probeInNamespace(after: up + [["route", "add", "default", "via", "10.77.0.1", "dev", "ek0"]])
        XCTAssertEqual(routed, "online")
    }

    func testThatAnIPv6DefaultRouteAloneIsOnline() throws {
        let up = interface(["-6", "addr", "add", "fd77::2/64", "nodad"])
        let unrouted = try probeInNamespace(after: up)
        XCTAssertEqual(unrouted, "offline", "an address but no default route")
        let routed = try probeInNamespace(
            after: up + [["-6", "route", "add", "default", "via", "fd77::1", "dev", "ek0"]])
        XCTAssertEqual(routed, "online")
    }

    func testThatChangesArePublishedToTheSequence() async {
        let status = Locked(ConnectivityMonitor.Status.online)
        let monitor = ConnectivityMonitor(pollingInterval: 0.05) { status.value }
        XCTAssertEqual(monitor.status, .online)
        var iterator = monitor.updates.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first, .online)
        status.value = .offline
        let second = await iterator.next()
        XCTAssertEqual(second, .offline)
        XCTAssertEqual(monitor.status, .offline)
    }
}
#endif
