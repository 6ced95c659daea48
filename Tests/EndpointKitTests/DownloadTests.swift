@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// Downloads to files: atomic placement, resume with Range/If-Range, restarts, name sanitizing,
/// and progress.
final class DownloadTests: LoopbackTestCase {
    struct Fetch: DownloadRequest {
        var path: RequestPath = "/blob"
        var destination: DownloadDestination
        var isResumable = true
    }

    private var folder: URL!
    private var partials: URL!
    private let blob: Data = {
        var bytes = [UInt8](repeating: 0, count: 1_000_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 8) }
        return Data(bytes)
    }()

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-dl-\(UUID().uuidString)")
        partials = folder.appendingPathComponent("partials")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        client = makeClient { $0.partialDownloadsDirectory = self.partials }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    /// Serves `data` with an ETag and Range/If-Range support; `cutFirst` drops the connection
    /// after that many bytes on the first full request; `ignoreRange` answers 200 always.
    private func serveBlob(
        _ data: Data, etag: String = "\"v1\"", cutFirst: Int? = nil, ignoreRange: Bool = false, ranges: Locked<[String]>
    ) {
        let cuts = Locked(cutFirst)
        server.route("/blob") { request in
            ranges.value.append(request.header("Range") ?? "-")
            var headers: [(String, String)] = [("ETag", etag), ("Content-Type", "application/octet-stream")]
            if !ignoreRange, let range = request.header("Range"), request.header("If-Range") == etag,
                let start = Int(range.dropFirst("bytes=".count).prefix { $0.isNumber })
            {
                guard start < data.count else { return .status(416) }
                headers.append(("Content-Range", "bytes \(start)-\(data.count - 1)/\(data.count)"))
                return .response(status: 206, headers: headers, body: data.subdata(in: start..<data.count))
            }
            if let cut = cuts.value {
                cuts.value = nil
                return .closeMidBody(status: 200, headers: headers, declaredLength: data.count, body: data.prefix(cut))
            }
            return .response(status: 200, headers: headers, body: data)
        }
    }

    func testThatAMissingFolderFailsTheDownloadUnlessItsIntermediateDirectoriesAreCreated() async throws {
        // GIVEN a destination two folders below one that exists
        serveBlob(blob, ranges: Locked([]))
        let target = folder.appendingPathComponent("a/b/report.bin")

        // WHEN it is downloaded without, then with, createsIntermediateDirectories
        let refused = await client.send(Fetch(destination: .file(target)))
        let created = await client.send(Fetch(destination: .file(target, createsIntermediateDirectories: true)))
        let intoFolder = await client.send(
            Fetch(destination: .directory(folder.appendingPathComponent("c/d"), createsIntermediateDirectories: true)))

        // THEN the first fails as a local file error and leaves nothing, the others land whole
        XCTAssertEqual(refused.transportReason, .localFileError)
        XCTAssertEqual(try created.get(), target)
        XCTAssertEqual(try Data(contentsOf: target), blob)
        let landed = try intoFolder.get()
        XCTAssertEqual(landed.deletingLastPathComponent().lastPathComponent, "d")
        XCTAssertEqual(try Data(contentsOf: landed), blob)
    }

    func testThatADownloadLandsAtItsDestination() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(blob, ranges: ranges)
        let target = folder.appendingPathComponent("blob.bin")
        let url = try await client.value(for: Fetch(destination: .file(target)))
        XCTAssertEqual(url, target)
        XCTAssertEqual(try Data(contentsOf: target), blob)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: partials.path), [])
    }

    func testThatADroppedDownloadResumesWithRangeAndEndsByteIdentical() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(blob, cutFirst: 300_000, ranges: ranges)
        let target = folder.appendingPathComponent("resumed.bin")
        let first = await client.send(Fetch(destination: .file(target)))
        XCTAssertTrue([.connectionLost, .badResponse].contains(first.transportReason), "\(first)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path), "never half-written at the destination")
        let second = await client.send(Fetch(destination: .file(target)))
        XCTAssertEqual(second.value, target)
        XCTAssertEqual(try Data(contentsOf: target), blob)
        XCTAssertEqual(ranges.value.first, "-")
        XCTAssertTrue(ranges.value.last?.hasPrefix("bytes=") ?? false, "\(ranges.value)")
        XCTAssertNotEqual(ranges.value.last, "bytes=0-")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: partials.path), [])
    }

    func testThatAServerIgnoringRangeRestartsFromZero() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(blob, cutFirst: 200_000, ignoreRange: true, ranges: ranges)
        let target = folder.appendingPathComponent("restart.bin")
        _ = await client.send(Fetch(destination: .file(target)))
        let second = await client.send(Fetch(destination: .file(target)))
        XCTAssertEqual(second.value, target)
        XCTAssertEqual(try Data(contentsOf: target), blob)
        XCTAssertTrue(ranges.value.last?.hasPrefix("bytes=") ?? false)
    }

    func testThatAChangedResourceRestartsCleanly() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(blob, etag: "\"v1\"", cutFirst: 100_000, ranges: ranges)
        let target = folder.appendingPathComponent("changed.bin")
        _ = await client.send(Fetch(destination: .file(target)))
        let changed = Data(blob.reversed())
        serveBlob(changed, etag: "\"v2\"", ranges: ranges)
        _ = try await client.value(for: Fetch(destination: .file(target)))
        XCTAssertEqual(try Data(contentsOf: target), changed)
    }

    func testThatAPartialFileLongerThanTheResourceRestarts() async throws {
        let ranges = Locked<[String]>([])
        let big = Data(repeating: 1, count: 50_000)
        serveBlob(big, cutFirst: 40_000, ranges: ranges)
        let target = folder.appendingPathComponent("shrunk.bin")
        _ = await client.send(Fetch(destination: .file(target)))
        let small = Data(repeating: 2, count: 10_000)
        serveBlob(small, ranges: ranges)  // same ETag, now shorter than the partial file: 416
        _ = try await client.value(for: Fetch(destination: .file(target)))
        XCTAssertEqual(try Data(contentsOf: target), small)
    }

    func testThatAnExistingFileIsReplacedOnlyWhenAsked() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(Data("new".utf8), ranges: ranges)
        let target = folder.appendingPathComponent("existing.txt")
        try Data("old".utf8).write(to: target)
        let refused = await client.send(Fetch(destination: .file(target)))
        XCTAssertEqual(refused.transportReason, .localFileError)
        XCTAssertEqual(try Data(contentsOf: target), Data("old".utf8))
        _ = try await client.value(for: Fetch(destination: .file(target, replacingExisting: true)))
        XCTAssertEqual(try Data(contentsOf: target), Data("new".utf8))
    }

    func testThatAMissingDestinationFolderIsAClearError() async {
        let ranges = Locked<[String]>([])
        serveBlob(Data("x".utf8), ranges: ranges)
        let result = await client.send(Fetch(destination: .file(folder.appendingPathComponent("nope/deep/file"))))
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .localFileError)
        XCTAssertTrue(error.message.contains("missing or not writable"), error.message)
    }

    func testThatServerSuggestedNamesCannotLeaveTheFolder() async throws {
        server.route("/blob") { _ in
            .response(
                status: 200, headers: [("Content-Disposition", #"attachment; filename="../../etc/passwd""#)],
                body: Data("safe".utf8))
        }
        let url = try await client.value(for: Fetch(destination: .directory(folder)))
        XCTAssertEqual(url, folder.appendingPathComponent("passwd"))
        XCTAssertEqual(try Data(contentsOf: url), Data("safe".utf8))
        XCTAssertEqual(
            DownloadDestination.sanitizedFileName(fromContentDisposition: #"attachment; filename=".env""#), "env")
        XCTAssertEqual(
            DownloadDestination.sanitizedFileName(
                fromContentDisposition: "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf"),
            "résumé.pdf")
        XCTAssertEqual(DownloadDestination.sanitizedFileName(#"..\..\windows\a.txt"#), "a.txt")
        XCTAssertNil(DownloadDestination.sanitizedFileName("../.."))
        XCTAssertNil(DownloadDestination.sanitizedFileName("a\u{0}/\u{7}"))
    }

    func testThatCancelKeepsOrDiscardsThePartialFile() async throws {
        server.route("/blob") { [blob] _ in
            .chunked(
                status: 200, headers: [("ETag", "\"v1\"")], chunks: [blob.prefix(1000), blob.suffix(1000)],
                delayBetweenChunks: 5)
        }
        let target = folder.appendingPathComponent("cancelled.bin")
        let keptDone = expectation(description: "kept")
        let keptResult = Locked<APIResult<URL>?>(nil)
        let kept = client.send(Fetch(destination: .file(target))) {
            keptResult.value = $0
            keptDone.fulfill()
        }
        try await Task.sleep(nanoseconds: 400_000_000)
        kept.cancel()
        await fulfillment(of: [keptDone], timeout: 10)
        XCTAssertEqual(keptResult.value?.transportReason, .cancelled)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: partials.path).filter { $0.hasSuffix(".partial") }
                .count, 1)

        let discardedDone = expectation(description: "discarded")
        let discarded = client.send(Fetch(destination: .file(target))) { _ in discardedDone.fulfill() }
        try await Task.sleep(nanoseconds: 400_000_000)
        discarded.cancelDiscardingPartialDownload()
        await fulfillment(of: [discardedDone], timeout: 10)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: partials.path), [])
    }

    func testThatDownloadProgressIsMonotonicAndEndsAtOne() async throws {
        let ranges = Locked<[String]>([])
        serveBlob(blob, ranges: ranges)
        let values = Locked<[TransferProgress]>([])
        let target = folder.appendingPathComponent("progress.bin")
        let result = await withCheckedContinuation { continuation in
            client.send(Fetch(destination: .file(target)), progress: { values.value.append($0) }) {
                continuation.resume(returning: $0)
            }
        }
        XCTAssertTrue(result.isSuccess)
        let seen = values.value
        XCTAssertGreaterThan(seen.count, 2)
        let fractions = seen.compactMap(\.fractionCompleted)
        XCTAssertEqual(fractions, fractions.sorted())
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(seen.last?.bytesReceived, Int64(blob.count))
    }

    func testThatUploadProgressReachesAnAwaitedSendOnTheMainActor() async throws {
        let file = folder.appendingPathComponent("upload.bin")
        try blob.write(to: file)
        server.route("/upload") { request in .json(["size": request.body.count]) }
        struct UploadFile: APIRequest {
            typealias Response = JSONValue
            let file: URL
            var method: HTTPMethod { .put }
            var path: RequestPath { "/upload" }
            var parameters: RequestParameters { .file(file) }
        }
        let fractions = Locked<[Double]>([])
        let value = try await client.value(for: UploadFile(file: file)) { progress in
            MainActor.assertIsolated()
            fractions.value.append(progress.fractionCompleted ?? 0)
        }
        XCTAssertEqual(value, ["size": .int(blob.count)])
        // The last value was queued on the main actor before the result: let it run.
        await MainActor.run {}
        let seen = fractions.value
        XCTAssertGreaterThan(seen.count, 1)
        XCTAssertEqual(seen, seen.sorted())
        XCTAssertEqual(seen.last, 1)
    }
}
