// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Disks that refuse writes (read-only, full) and files damaged on disk: a typed error at enqueue,
/// nothing already stored lost; a damaged file quarantined and reported, the others delivered.
///
/// As root the read-only and full file systems are a small tmpfs in a private mount namespace
/// (`unshare --mount`), where the child process runs; without root the read-only case removes the
/// write permission instead, and the full disk is skipped (XCTSkip), as it is where `unshare` is
/// missing.
final class OutboxDiskFaultTests: OutboxTestCase {
    private var isRoot: Bool { getuid() == 0 }

    /// Runs `script` with `sh` in a new mount namespace (`$1` the child, `$2` a folder to mount
    /// on, `$3` the server's URL) and returns what it printed.
    private func runInMountNamespace(_ script: String) throws -> OutboxChild {
        guard isRoot else { throw XCTSkip("a tmpfs in a private mount namespace needs root") }
        let unshare = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let unshare else { throw XCTSkip("unshare (util-linux) is not installed") }
        let mountPoint = directory.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let child = try OutboxChild(
            URL(fileURLWithPath: unshare),
            arguments: [
                "--mount", "/bin/sh", "-c", script, "sh", try OutboxChild.executable().path, mountPoint.path,
                server.baseURL.absoluteString,
            ])
        XCTAssertTrue(child.waitForExit(timeout: 60), "\(child.output)")
        if child.output.contains("no-mount") { throw XCTSkip("mounting a tmpfs is not permitted here") }
        return child
    }

    func testThatAReadOnlyDirectoryIsATypedErrorAndLosesNothingStored() throws {
        guard isRoot else { return try readOnlyByPermissions() }
        // GIVEN three entries stored while offline, then the file system made read-only
        let child = try runInMountNamespace(
            """
            mount -t tmpfs -o size=4m outbox "$2" || { echo no-mount; exit 0; }
            "$1" --directory "$2/outbox" --base-url "$3" --offline --count 3 --exit-after-enqueue
            mount -o remount,ro "$2"
            "$1" --directory "$2/outbox" --base-url "$3" --offline --first 3 --count 1
            mount -o remount,rw "$2"
            "$1" --directory "$2/outbox" --base-url "$3"
            """)

        // THEN the enqueue on the read-only directory threw directoryNotWritable with the three
        // entries still there, and once writable again all three were sent, once each
        XCTAssertEqual(
            child.output,
            [
                "enqueued 0", "enqueued 1", "enqueued 2", "pending 3", "error directoryNotWritable", "pending 3",
                "drained",
            ])
        XCTAssertEqual(appliedNumbers.sorted(), [0, 1, 2])
    }

    /// The read-only case without root: the folders lose their write permission.
    private func readOnlyByPermissions() throws {
        let online = Locked(false)
        var outbox: Outbox? = try makeOutbox(monitor: makeMonitor(online: online))
        for number in 0..<3 { try outbox?.enqueue(Self.item(number)) }
        let folders = ["tmp", "entries", "bodies"].map { directory.appendingPathComponent($0).path }
        for folder in folders { chmod(folder, 0o555) }
        defer { for folder in folders { chmod(folder, 0o755) } }

        XCTAssertThrowsError(try outbox?.enqueue(Self.item(3))) { error in
            guard case .directoryNotWritable = error as? OutboxError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(outbox?.pending.count, 3)
        for folder in folders { chmod(folder, 0o755) }
        outbox = nil
        outbox = try makeOutbox()
        XCTAssertTrue(ledger.waitForApplied(count: 3, timeout: 10))
        XCTAssertEqual(appliedNumbers, [0, 1, 2])
    }

    func testThatAFullDiskIsATypedErrorAndEveryEntryStoredBeforeIsSent() throws {
        // GIVEN a 256 KiB file system, filled with 6 KB entries while offline until it is full
        let child = try runInMountNamespace(
            """
            mount -t tmpfs -o size=256k outbox "$2" || { echo no-mount; exit 0; }
            "$1" --directory "$2/outbox" --base-url "$3" --offline --fill --pad 6000
            """)

        // THEN the enqueue that did not fit threw diskFull; every entry stored before it was sent
        // once the network came back, and none other
        let output = child.output
        XCTAssertEqual(output.suffix(2), ["error diskFull", "drained"], "\(output)")
        XCTAssertGreaterThan(child.enqueued.count, 5)
        XCTAssertEqual(child.enqueued, Array(0..<child.enqueued.count))
        XCTAssertEqual(appliedNumbers.sorted(), child.enqueued)
    }

    func testThatDamagedEntryFilesAreQuarantinedAndReportedAndTheOthersSent() throws {
        // GIVEN three entries stored while offline
        let online = Locked(false)
        var outbox: Outbox? = try makeOutbox(monitor: makeMonitor(online: online))
        let ids = try (1...3).map { try XCTUnwrap(outbox?.enqueue(Self.item($0))) }
        outbox = nil

        // WHEN the second one's file is cut short, and two files of garbage appear
        let entries = directory.appendingPathComponent("entries")
        let names = files(in: "entries")
        XCTAssertEqual(names.count, 3)
        let second = entries.appendingPathComponent(names[1])
        let bytes = try Data(contentsOf: second)
        try bytes.prefix(bytes.count / 2).write(to: second)
        let garbageID = UUID()
        try Data("not an outbox entry at all".utf8).write(
            to: entries.appendingPathComponent("00000000000000ff-\(garbageID.uuidString).entry"))
        try Data((0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(
            to: entries.appendingPathComponent("junk.entry"))

        // AND the outbox is opened again, with a network
        outbox = try makeOutbox()
        let log = ResultLog()
        outbox?.onResult { log.append($0) }

        // THEN the two intact entries are sent, and the three damaged files are reported and moved
        XCTAssertTrue(ledger.waitForApplied(count: 2, timeout: 10))
        XCTAssertTrue(waitUntil { log.results.count == 5 })
        XCTAssertEqual(appliedNumbers, [1, 3])
        var damaged: [OutboxEntry.ID: String] = [:]
        for result in log.results {
            if case .damaged(let file, let reason) = result.outcome {
                damaged[result.entryID] = reason
                XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), file.path)
            }
        }
        XCTAssertEqual(damaged.count, 3)
        XCTAssertNotNil(damaged[ids[1]], "the cut entry is reported under its identifier")
        XCTAssertNotNil(damaged[OutboxEntry.ID(garbageID.uuidString)!])
        XCTAssertEqual(Set(log.results.compactMap { $0.succeeded == nil ? nil : $0.entryID }), [ids[0], ids[2]])
        XCTAssertEqual(files(in: "damaged").count, 3)
        XCTAssertTrue(waitUntil { self.files(in: "entries").isEmpty })
    }
}
#endif
