import Foundation
import XCTest

@testable import EndpointKitBench

/// Runs the built `endpointkit-bench` in `--quick` mode with tiny counts and checks that its JSON
/// parses and lists every scenario. The numbers are not checked: no timing assertion in tests.
final class BenchSmokeTests: XCTestCase {
    /// The bench binary, built next to this test bundle (the test target depends on it).
    private static func benchExecutable() -> URL? {
        var directories: [URL] = []
        if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
        }
        // macOS: the .xctest bundle sits in the products directory.
        directories.append(Bundle(for: BenchSmokeTests.self).bundleURL.deletingLastPathComponent())
        return directories.map { $0.appendingPathComponent("endpointkit-bench") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the bench with `arguments` (killed after 60 s so a test is bounded) and parses its
    /// JSON report, failing the test on a non-zero exit.
    private func runBench(_ arguments: [String]) throws -> [String: Any] {
        let (data, errorTail, _) = try runBenchOutput(arguments, timeout: 60)
        let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        return try XCTUnwrap(
            report, "not a JSON object: \(String(decoding: data.prefix(2000), as: UTF8.self))\n\(errorTail)")
    }

    /// Runs the bench with `arguments`, killed after `timeout` seconds so a test is bounded, failing
    /// the test on a non-zero exit.
    /// - Returns: its standard output, the last lines of its standard error, and its process id.
    private func runBenchOutput(_ arguments: [String], timeout: Double) throws -> (Data, String, Int32) {
        let executable = try XCTUnwrap(Self.benchExecutable(), "endpointkit-bench was not built next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        // Its standard error goes to a file, quoted when it fails (a sanitizer's report lands there).
        let errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("endpointkit-bench-smoke-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorLog) }
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        let lines = errors.split(separator: "\n", omittingEmptySubsequences: false)
        // A sanitizer's report from its first line (its stacks say where), else the last lines.
        let report = lines.firstIndex {
            $0.contains("WARNING: ThreadSanitizer") || $0.contains("ERROR: AddressSanitizer")
        }
        let errorTail = (report.map { lines[$0...].prefix(80) } ?? lines.suffix(40)).joined(separator: "\n")
        XCTAssertEqual(process.terminationReason, .exit, "standard error ends with:\n\(errorTail)")
        XCTAssertEqual(process.terminationStatus, 0, "standard error ends with:\n\(errorTail)")
        return (data, errorTail, process.processIdentifier)
    }

    func testThatAQuickRunPrintsJSONWithEveryScenario() throws {
        // GIVEN the built benchmark and tiny counts
        // WHEN it runs
        let report = try runBench([
            "--quick", "--json", "--requests", "20", "--objects", "200", "--rounds", "1", "--transfer-mb", "16",
        ])

        // THEN its JSON has a row for every scenario of the issue, and for the bench's own (7, the
        // client core; 8, streamed responses)
        let rows = try XCTUnwrap(report["rows"] as? [[String: Any]])
        var statuses: [Int: Set<String>] = [:]
        for row in rows {
            let scenario = try XCTUnwrap(row["scenario"] as? Int)
            statuses[scenario, default: []].insert(try XCTUnwrap(row["status"] as? String))
        }
        XCTAssertEqual(
            statuses,
            [
                1: ["measured"], 2: ["measured"], 3: ["measured"], 4: ["measured"], 5: ["measured"], 6: ["measured"],
                7: ["measured"], 8: ["measured"],
            ])
        for row in rows where row["status"] as? String == "measured" {
            XCTAssertNotNil(row["ratio"], "\(row)")
            XCTAssertNotNil(row["endpointKit"] as? [String: Any], "\(row)")
            XCTAssertNotNil(row["baseline"] as? [String: Any], "\(row)")
        }
        // Scenario 4 reports RSS growth, scenario 5 single-request latencies.
        for row in rows where row["scenario"] as? Int == 4 {
            let endpointKit = try XCTUnwrap(row["endpointKit"] as? [String: Any])
            XCTAssertNotNil(endpointKit["peakGrowthKiB"] as? Int, "\(row)")
            XCTAssertEqual(row["bytes"] as? Int, 16 << 20)
        }
        for row in rows where row["scenario"] as? Int == 5 {
            let endpointKit = try XCTUnwrap(row["endpointKit"] as? [String: Any])
            XCTAssertNotNil(endpointKit["medianRequestSeconds"] as? Double, "\(row)")
        }
        // Scenario 7 reports the time per request of each side and EndpointKit's overhead.
        for row in rows where row["scenario"] as? Int == 7 {
            let perRequest = try XCTUnwrap(row["perRequest"] as? [String: Any], "\(row)")
            XCTAssertNotNil(perRequest["endpointKitMicroseconds"] as? Double, "\(row)")
            XCTAssertNotNil(perRequest["baselineMicroseconds"] as? Double, "\(row)")
            XCTAssertNotNil(perRequest["overheadMicroseconds"] as? Double, "\(row)")
        }
        // Scenario 8: first event, chunks, events, and the slow reader's RSS growth.
        let streamRows = rows.filter { $0["scenario"] as? Int == 8 }
        XCTAssertEqual(streamRows.count, 4)
        let slowReader = try XCTUnwrap(streamRows.last)
        XCTAssertNotNil((slowReader["endpointKit"] as? [String: Any])?["peakGrowthKiB"] as? Int, "\(slowReader)")
        XCTAssertEqual(slowReader["bytes"] as? Int, 16 << 20)
        let server = try XCTUnwrap(report["server"] as? [String: Any])
        let capacity = try XCTUnwrap(server["capacity"] as? [[String: Any]])
        XCTAssertEqual(capacity.count, 2)
        XCTAssertTrue(capacity.allSatisfy { ($0["requestsPerSecond"] as? Double ?? 0) > 0 }, "\(capacity)")
        #if os(Linux)
        // Scenarios 1 and 2 add a row per measurement for EndpointKit on CurlTransport.
        let libcurlRows = rows.filter { ($0["label"] as? String)?.hasSuffix(", on CurlTransport") == true }
        XCTAssertEqual(libcurlRows.map { $0["scenario"] as? Int }, [1, 2, 2])
        for row in libcurlRows {
            XCTAssertEqual((row["endpointKit"] as? [String: Any])?["name"] as? String, "EndpointKit+libcurl")
        }
        #endif
    }

    /// `--nginx` (CI installs nginx and sets `ENDPOINTKIT_REQUIRE_NGINX=1`, so there it cannot skip).
    func testThatNginxServesTheModelAndIsStoppedAfterwards() throws {
        let installed = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if !installed {
            XCTAssertNil(ProcessInfo.processInfo.environment["ENDPOINTKIT_REQUIRE_NGINX"], "nginx is not installed")
            throw XCTSkip("nginx is not installed")
        }
        let report = try runBench([
            "--quick", "--json", "--nginx", "--requests", "20", "--rounds", "1", "--scenario", "sequential",
        ])
        let nginx = try XCTUnwrap(report["modelServer"] as? [String: Any])
        XCTAssertTrue((nginx["kind"] as? String)?.hasPrefix("nginx") == true, "\(nginx)")
        let rows = try XCTUnwrap(report["rows"] as? [[String: Any]])
        XCTAssertFalse(rows.isEmpty)
        XCTAssertTrue(rows.allSatisfy { $0["status"] as? String == "measured" }, "\(rows)")
        // Its folder is gone: the bench removes it once nginx has exited.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("endpointkit-bench-nginx-") }
        XCTAssertEqual(leftovers, [])
    }

    /// `--instructions`: callgrind counts the five clients at both loads. CI installs valgrind and nginx
    /// and sets `ENDPOINTKIT_REQUIRE_NGINX=1`, so there it cannot skip for want of either.
    func testThatInstructionsPrintsThreeLinesPerLoadWithPositiveCounts() throws {
        let tools = [
            "valgrind": ["/usr/bin/valgrind", "/usr/local/bin/valgrind"],
            "nginx": ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"],
        ]
        for (tool, paths) in tools.sorted(by: { $0.key < $1.key })
        where !paths.contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            XCTAssertNil(ProcessInfo.processInfo.environment["ENDPOINTKIT_REQUIRE_NGINX"], "\(tool) is not installed")
            throw XCTSkip("\(tool) is not installed")
        }
        // CI also runs the bench's tests under the thread and address sanitizers, the bench built
        // the same way, and valgrind 3.19 cannot count a sanitized process: ThreadSanitizer fails a
        // CHECK under it and dies with SIGILL; AddressSanitizer re-executes itself with a fixed
        // address space, outside valgrind, leaving callgrind's file empty. The bench then prints a
        // line and measures nothing, so the test skips; CI's plain run of these tests covers it.
        if let sanitizer = InstructionsMode.sanitizer {
            throw XCTSkip("valgrind cannot count a process built with the \(sanitizer) sanitizer")
        }

        // GIVEN valgrind, nginx and the built bench
        // WHEN it counts 20 and 40 requests per client and load (a debug build: about a minute here)
        let (data, errorTail, pid) = try runBenchOutput(["--instructions", "--requests", "20"], timeout: 600)

        // THEN it prints three lines per load, with positive counts and their ratios: EndpointKit
        // against bare libcurl, then bare libcurl sending EndpointKit's request headers, then
        // EndpointKit on URLSessionTransport against URLSession data(for:)
        let output = String(decoding: data, as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern: #"^instructions per request \((.+)\): "#
                + #"EndpointKit\+libcurl (-?\d+), bare libcurl (-?\d+), ratio (-?\d+\.\d\d)$"#)
        let sameHeaders = try NSRegularExpression(
            pattern: #"^same request headers \((.+)\): "#
                + #"bare libcurl with EndpointKit's request headers (-?\d+), ratio (-?\d+\.\d\d)$"#)
        let onURLSession = try NSRegularExpression(
            pattern: #"^on URLSession \((.+)\): "#
                + #"EndpointKit on URLSessionTransport (-?\d+), URLSession data\(for:\) (-?\d+), ratio (-?\d+\.\d\d)$"#)
        var loads: [String] = []
        var headerLoads: [String] = []
        var urlSessionLoads: [String] = []
        var lastEndpointKit: Int?
        for line in output.split(separator: "\n").map(String.init) {
            let range = NSRange(line.startIndex..., in: line)
            if let match = sameHeaders.firstMatch(in: line, range: range) {
                let groups = (1...3).compactMap { Range(match.range(at: $0), in: line).map { String(line[$0]) } }
                XCTAssertEqual(groups.count, 3, line)
                headerLoads.append(groups[0])
                let withHeaders = try XCTUnwrap(Int(groups[1]))
                XCTAssertGreaterThan(withHeaders, 0, line)
                // Its ratio is over the EndpointKit count of the same load's line, printed just before.
                let endpointKit = try XCTUnwrap(lastEndpointKit, "no EndpointKit line before \(line)")
                XCTAssertEqual(
                    try XCTUnwrap(Double(groups[2])), Double(endpointKit) / Double(withHeaders), accuracy: 0.006, line)
                lastEndpointKit = nil
                continue
            }
            if let match = onURLSession.firstMatch(in: line, range: range) {
                let groups = (1...4).compactMap { Range(match.range(at: $0), in: line).map { String(line[$0]) } }
                XCTAssertEqual(groups.count, 4, line)
                urlSessionLoads.append(groups[0])
                let (endpointKit, urlSession) = (try XCTUnwrap(Int(groups[1])), try XCTUnwrap(Int(groups[2])))
                XCTAssertGreaterThan(endpointKit, 0, line)
                XCTAssertGreaterThan(urlSession, 0, line)
                XCTAssertEqual(
                    try XCTUnwrap(Double(groups[3])), Double(endpointKit) / Double(urlSession), accuracy: 0.006, line)
                continue
            }
            guard let match = pattern.firstMatch(in: line, range: range) else {
                XCTFail("unexpected line \(line)\n\(errorTail)")
                continue
            }
            let groups = (1...4).compactMap { Range(match.range(at: $0), in: line).map { String(line[$0]) } }
            XCTAssertEqual(groups.count, 4, line)
            loads.append(groups[0])
            let endpointKit = try XCTUnwrap(Int(groups[1]))
            lastEndpointKit = endpointKit
            let bare = try XCTUnwrap(Int(groups[2]))
            let ratio = try XCTUnwrap(Double(groups[3]))
            XCTAssertGreaterThan(endpointKit, 0, line)
            XCTAssertGreaterThan(bare, 0, line)
            XCTAssertEqual(ratio, Double(endpointKit) / Double(bare), accuracy: 0.006, line)
        }
        XCTAssertEqual(loads, ["sequential", "16 in flight"], "\(output)\n\(errorTail)")
        XCTAssertEqual(headerLoads, loads, "\(output)\n\(errorTail)")
        XCTAssertEqual(urlSessionLoads, loads, "\(output)\n\(errorTail)")
        // Its folders (the stripped copy and callgrind's files; nginx's) are gone.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { ["endpointkit-bench-instructions-\(pid)", "endpointkit-bench-nginx-\(pid)"].contains($0) }
        XCTAssertEqual(leftovers, [])
    }
}
