import EndpointKitComposition
import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nothing heavy runs on the thread that sends: from the main thread, a send returns at once and
/// its body's encoding, its files' staging, its cache lookup and its transport setup run on the
/// processing queue. Each test holds that work at a gate the test opens only after the send
/// returned, and records the thread the work ran on (never how long anything took).
final class CallerThreadTests: LoopbackTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/echo") { request in .json(["size": request.body.count]) }
        server.route("/lines") { _ in .text("one\ntwo\n") }
    }

    // MARK: - The steps of an attempt

    func testThatAJSONBodyIsEncodedAfterTheSendReturnedOffTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs test methods on the main thread")
        let box = ResultBox<JSONValue>()
        assertHeldUntilReturn(WorkGate(), expecting: ["encode"]) { gate, finished in
            client.send(EncodedPost(gate: gate)) { result in
                box.append(result)
                finished()
            }
        }
        XCTAssertEqual(box.results.first?.value, ["size": 34])
    }

    func testThatAMultipartFileIsStagedAfterTheSendReturnedOffTheMainThread() throws {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs test methods on the main thread")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        // The part is a named pipe: staging blocks reading it until the feeder below writes it.
        let pipe = folder.appendingPathComponent("part.bin")
        XCTAssertEqual(mkfifo(pipe.path, 0o600), 0)
        let payload = Data("streamed through a pipe \(UUID().uuidString)".utf8)
        server.route("/upload") { request in .json(["holdsPayload": request.body.range(of: payload) != nil]) }
        var form = MultipartFormData()
        form.inMemoryThreshold = 0  // staged part by part into a temporary file
        form.append(fileAt: pipe, name: "file")

        // The feeder opens the pipe only once the send returned (or it gave up waiting), then, while
        // the staging waits for the pipe's bytes, checks that the main thread is free to run work.
        let gate = WorkGate()
        let report = FeedReport()
        let fed = expectation(description: "pipe fed")
        Thread.detachNewThread {
            let returned = gate.waitUntilOpen()
            let descriptor = Self.openForWriting(pipe)
            var mainWasFree = false
            if descriptor >= 0 {
                let probe = DispatchSemaphore(value: 0)
                DispatchQueue.main.async { probe.signal() }
                mainWasFree = probe.wait(timeout: .now() + 5) == .success
                _ = payload.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
            report.set(returnedFirst: returned, stagingOpenedThePipe: descriptor >= 0, mainWasFree: mainWasFree)
            fed.fulfill()
        }
        let done = expectation(description: "completion")
        let box = ResultBox<JSONValue>()
        client.send(MultipartTests.Upload(form: form)) { result in
            box.append(result)
            done.fulfill()
        }
        gate.open()
        wait(for: [fed, done], timeout: 30)
        XCTAssertTrue(report.stagingOpenedThePipe, "the staging read the file")
        XCTAssertTrue(report.returnedFirst, "the send returned before the file was staged")
        XCTAssertTrue(report.mainWasFree, "the staging did not hold the main thread")
        XCTAssertEqual(box.results.first?.value, ["holdsPayload": true])
    }

    func testThatTheCacheLookupRunsAfterTheSendReturnedOffTheMainThread() throws {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs test methods on the main thread")
        struct Cached: APIRequest {
            typealias Response = JSONValue
            var path: RequestPath { "/item" }
            var cachePolicy: CachePolicy? { CachePolicy(lifetime: 60) }
        }
        let hits = Counter()
        server.route("/item") { _ in
            hits.increment()
            return .json(["id": 1])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-cache-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let gate = WorkGate(holding: false)
        // No memory tier: the lookup reads the disk.
        let cache = ResponseCache(directory: folder, memoryCapacity: 0, observingDisk: { gate.pass("\($0)") })
        client = makeClient { $0.cache = cache }
        XCTAssertEqual(sendAndWait(Cached())?.metadata?.source, .network)

        let box = ResultBox<JSONValue>()
        assertHeldUntilReturn(gate, expecting: ["digest", "read"]) { _, finished in
            client.send(Cached()) { result in
                box.append(result)
                finished()
            }
        }
        guard case .cache? = box.results.first?.metadata?.source else {
            return XCTFail("answered from \(String(describing: box.results.first?.metadata?.source))")
        }
        XCTAssertEqual(hits.total, 1)
    }

    // MARK: - Every closure form

    func testThatEveryClosureFormReturnsBeforeItsWork() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs test methods on the main thread")
        assertHeldUntilReturn(WorkGate(), expecting: ["encode"], "batch") { gate, finished in
            client.send(RequestBatch([EncodedPost(gate: gate), EncodedPost(gate: gate)])) { _ in finished() }
        }
        assertHeldUntilReturn(WorkGate(), expecting: ["encode"], "cached send") { gate, finished in
            client.send(EncodedPost(gate: gate), cached: { _ in }, completion: { _ in finished() })
        }
        assertHeldUntilReturn(WorkGate(), expecting: ["encode"], "stream") { gate, finished in
            client.stream(EncodedStream(gate: gate), onElement: { _ in }, completion: { _ in finished() })
        }
    }

    // MARK: - Awaiting callers and cancellation

    /// An awaited send does its work on the library's own task: off the main actor that awaits it,
    /// and without a hop to the processing queue.
    @MainActor
    func testThatAnAwaitedSendFromTheMainActorWorksInlineOffTheMainActor() async {
        XCTAssertTrue(Thread.isMainThread, "a @MainActor test runs on the main thread")
        WorkGate.markProcessingQueue(of: client)
        let gate = WorkGate()
        gate.open()  // the caller is suspended anyway: nothing to hold
        let result = await client.send(EncodedPost(gate: gate))
        XCTAssertEqual(result.value, ["size": 34])
        let steps = gate.steps
        XCTAssertEqual(steps.map(\.name), ["encode"])
        XCTAssertEqual(steps.first?.onMainThread, false, "the encoding ran on the main actor")
        XCTAssertEqual(steps.first?.onProcessingQueue, false, "the encoding hopped to the processing queue")
    }

    func testThatASendCancelledBeforeItsFirstAttemptCompletesOnceAsCancelled() {
        let requests = Counter()
        server.route("/echo") { _ in
            requests.increment()
            return .json([:])
        }
        let gate = WorkGate()
        gate.open()
        // The processing queue is held, so the first attempt cannot start before the cancel.
        let queue = client.processingQueue
        let held = DispatchSemaphore(value: 0)
        queue.async(flags: .barrier) { _ = held.wait(timeout: .now() + 10) }
        let box = ResultBox<JSONValue>()
        let done = expectation(description: "completion")
        let handle = client.send(EncodedPost(gate: gate)) { result in
            box.append(result)
            done.fulfill()
        }
        handle.cancel()
        held.signal()
        wait(for: [done], timeout: 10)
        queue.sync(flags: .barrier) {}  // the first attempt has run (and seen the cancel)
        // Delivered the way the first one was, in order: anything else delivered comes before it.
        server.route("/drain") { _ in .json([:]) }
        struct Drain: APIRequest {
            typealias Response = JSONValue
            var path: RequestPath { "/drain" }
        }
        XCTAssertNotNil(sendAndWait(Drain()))
        XCTAssertEqual(box.results.count, 1)
        XCTAssertEqual(box.results.first?.transportReason, .cancelled)
        XCTAssertEqual(gate.steps.map(\.name), [], "the cancelled send built nothing")
        XCTAssertEqual(requests.total, 0)
        XCTAssertEqual(client.inFlightRequests, [])
    }

    // MARK: - Helpers

    /// Starts a send through `send` (which calls `finished` from its completion), opens the gate
    /// once it returned, waits for the completion, and checks each step of the work: the
    /// `expected` ones ran, none before the send returned, none on the main thread, all on the
    /// client's processing queue.
    private func assertHeldUntilReturn(
        _ gate: WorkGate, expecting expected: Set<String>, _ form: String = "send",
        file: StaticString = #filePath, line: UInt = #line,
        _ send: (WorkGate, @escaping @Sendable () -> Void) -> Void
    ) {
        WorkGate.markProcessingQueue(of: client)
        gate.hold()
        let done = expectation(description: "\(form) completed")
        send(gate) { done.fulfill() }
        gate.open()
        wait(for: [done], timeout: 30)
        gate.release()
        let steps = gate.steps
        XCTAssertTrue(
            expected.isSubset(of: steps.map(\.name)), "\(form): ran \(steps.map(\.name))", file: file, line: line)
        for step in steps {
            XCTAssertTrue(
                step.afterReturn, "\(form): \(step.name) ran before the send returned", file: file, line: line)
            XCTAssertFalse(step.onMainThread, "\(form): \(step.name) ran on the main thread", file: file, line: line)
            XCTAssertTrue(
                step.onProcessingQueue, "\(form): \(step.name) ran off the processing queue", file: file, line: line)
        }
    }

    /// Opens a named pipe for writing once a reader has opened it (at most 10 s); -1 if none did.
    private static func openForWriting(_ url: URL) -> Int32 {
        let deadline = Date(timeIntervalSinceNow: 10)
        repeat {
            let descriptor = open(url.path, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { return descriptor }
            guard errno == ENXIO else { return -1 }
            usleep(1000)
        } while Date() < deadline
        return -1
    }
}

/// What the pipe feeder of the multipart test saw.
private final class FeedReport: @unchecked Sendable {
    private let lock = NSLock()
    private var values = (returnedFirst: false, stagingOpenedThePipe: false, mainWasFree: false)

    func set(returnedFirst: Bool, stagingOpenedThePipe: Bool, mainWasFree: Bool) {
        lock.withLock { values = (returnedFirst, stagingOpenedThePipe, mainWasFree) }
    }

    var returnedFirst: Bool { lock.withLock { values.returnedFirst } }
    var stagingOpenedThePipe: Bool { lock.withLock { values.stagingOpenedThePipe } }
    var mainWasFree: Bool { lock.withLock { values.mainWasFree } }
}
