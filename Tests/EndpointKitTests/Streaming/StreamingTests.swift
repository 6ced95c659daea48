import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streaming requests over loopback on the default transport: the three ways to read, failures,
/// cancellation, retries before the first element only, and back-pressure.
final class StreamingTests: LoopbackTestCase {
    func testThatNDJSONLinesDecodeAndBlankLinesAreSkipped() async {
        server.route("/items") { _ in
            .pieces([
                #"{"id":1,"name":"a"}"# + "\n\n", #"{"id":2,"#, #""name":"b"}"# + "\r\n  \n", #"{"id":3,"name":"c"}"#,
            ])
        }
        let collected = await collect(ItemStream(), on: client)
        XCTAssertNil(collected.failure)
        XCTAssertEqual(collected.elements, [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")])
    }

    func testThatALineThatDoesNotDecodeEndsTheStreamAndItsTransfer() async {
        server.route("/items") { _ in
            .streamed(status: 200, headers: []) { body in
                body.send(#"{"id":1,"name":"a"}"# + "\n" + #"{"id":"two"}"# + "\n")
                // Endless unless the client goes away.
                while body.send(#"{"id":9,"name":"z"}"# + "\n") { body.wait(0.01) }
            }
        }
        let collected = await collect(ItemStream(), on: client)
        XCTAssertEqual(collected.elements, [Item(id: 1, name: "a")])
        XCTAssertEqual(collected.transportReason, .decodingFailed)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatARefusedStatusIsAServerFailureWithItsBody() async {
        server.route("/lines") { _ in .json(["message": "Too many"], status: 429) }
        let collected = await collect(LineStream(), on: client)
        XCTAssertEqual(collected.elements, [])
        XCTAssertEqual(collected.serverFailure?.statusCode, 429)
        XCTAssertEqual(collected.serverFailure?.message, "Too many")
        XCTAssertEqual(collected.serverFailure?.bodyText, #"{"message":"Too many"}"#)
    }

    func testThatLeavingTheLoopCancelsTheTransfer() async {
        server.route("/lines") { _ in .endlessLines(every: 0.005) }
        let collected = await collect(LineStream(), on: client, limit: 3)
        XCTAssertEqual(collected.elements, ["line 0", "line 1", "line 2"])
        XCTAssertNil(collected.failure)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        let deadline = Date(timeIntervalSinceNow: 10)
        while !client.inFlightRequests.isEmpty, Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertTrue(client.inFlightRequests.isEmpty)
    }

    func testThatCancellingTheTaskEndsTheLoopAsCancelled() async {
        server.route("/lines") { _ in .pieces(["first\n"]) }
        server.route("/stalled") { _ in
            .streamed(status: 200, headers: []) { body in
                body.send("first\n")
                body.wait(30)
            }
        }
        let client = self.client!
        let started = expectation(description: "first line")
        let task = Task { () -> Collected<String> in
            var collected = Collected<String>()
            do throws(APIFailure) {
                for try await line in client.stream(LineStream(path: "/stalled")) {
                    collected.elements.append(line)
                    started.fulfill()
                }
            } catch {
                collected.failure = error
            }
            return collected
        }
        await fulfillment(of: [started], timeout: 10)
        task.cancel()
        let collected = await task.value
        XCTAssertEqual(collected.elements, ["first"])
        XCTAssertEqual(collected.transportReason, .cancelled)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
    }

    func testThatTheClosureGetsEachElementThenTheSummaryOnce() {
        server.route("/lines") { _ in .pieces(["a\nb", "\nc\n"], delay: 0.01) }
        let lines = Locked<[String]>([])
        let results = ResultBox<StreamSummary>()
        let done = expectation(description: "completion")
        let handle = client.stream(
            LineStream(), onElement: { line in lines.withLock { $0.append(line) } },
            completion: { result in
                results.append(result)
                done.fulfill()
            })
        wait(for: [done], timeout: 20)
        XCTAssertEqual(lines.value, ["a", "b", "c"])
        XCTAssertEqual(results.results.count, 1)
        XCTAssertEqual(results.results.first?.value?.bytesReceived, 6)
        XCTAssertEqual(results.results.first?.metadata?.statusCode, 200)
        XCTAssertEqual(handle.state, .completed)
    }

    func testThatCancellingTheHandleDeliversNothingMoreThenCancelled() {
        server.route("/lines") { _ in
            .streamed(status: 200, headers: []) { body in
                var index = 0
                while body.send("line \(index)\n") { index += 1 }
            }
        }
        let count = Locked(0)
        let results = ResultBox<StreamSummary>()
        let done = expectation(description: "completion")
        let handleBox = Locked<RequestHandle?>(nil)
        let handle = client.stream(
            LineStream(bufferSize: 4096),
            onElement: { _ in
                let seen = count.withLock { count -> Int in
                    count += 1
                    return count
                }
                if seen == 5 { handleBox.value?.cancel() }
            },
            completion: { result in
                results.append(result)
                done.fulfill()
            })
        handleBox.value = handle
        wait(for: [done], timeout: 20)
        XCTAssertEqual(count.value, 5)
        XCTAssertEqual(results.results.first?.transportReason, .cancelled)
        XCTAssertEqual(handle.state, .cancelled)
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
    }

    func testThatARetryHappensBeforeTheFirstElementButNotAfter() async {
        let attempts = Counter()
        server.route("/lines") { _ in
            attempts.increment()
            return attempts.total == 1 ? .json(["message": "busy"], status: 503) : .pieces(["1\n2\n", "3"], cut: true)
        }
        let client = makeClient { $0.retrier = RetryPolicy(maxRetries: 3, baseDelay: 0.01) }
        let collected = await collect(LineStream(), on: client)
        // The 503 was retried; the cut after "1" and "2" was not (it would repeat them).
        XCTAssertEqual(collected.elements, ["1", "2"])
        XCTAssertEqual(collected.transportReason, .connectionLost)
        XCTAssertEqual(attempts.total, 2)
    }
}
