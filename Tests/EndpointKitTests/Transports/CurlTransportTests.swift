#if os(Linux)
import EndpointKitTestServer
import Foundation
import XCTest

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What only ``CurlTransport`` promises, beyond the conformance suite: libcurl's option numbers,
/// 307/308 with their body, no leaked handles or descriptors, shutdown with transfers in flight.
final class CurlTransportTests: XCTestCase {
    private var server: TestServer!
    private var transport: CurlTransport!

    override func setUpWithError() throws {
        server = try TestServer()
        transport = try CurlTransport()
    }

    override func tearDown() {
        transport = nil
        server?.stop()
        server = nil
    }

    private func execute(
        _ urlRequest: URLRequest, deadline: TimeInterval? = 10, on transport: CurlTransport? = nil
    ) throws -> Result<TransportResponse, TransportError> {
        let done = expectation(description: "completion")
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        let request = TransportRequest(
            urlRequest: urlRequest, timeouts: Timeouts(total: deadline), maximumResponseSize: 1 << 26)
        _ = (transport ?? self.transport).execute(request) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        return try XCTUnwrap(box.value)
    }

    func testThatTheHardCodedOptionNumbersMatchLibcurl() throws {
        let mismatches = try XCTUnwrap(CurlOption.mismatchedNumbers(), "libcurl \(CurlLibrary.version) has no table")
        XCTAssertEqual(mismatches, [])
        XCTAssertNotNil(CurlTransport.libraryVersion)
    }

    func testThatA307Or308ResendsTheMethodAndBody() throws {
        for status in [307, 308] {
            server.route("/old") { _ in .redirect(to: "/echo", status: status) }
            var request = URLRequest(url: server.url("/old")).with(method: "PUT")
            request.httpBody = Data(#"{"k":1}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let echo = try JSONDecoder().decode(Echo.self, from: try execute(request).get().data)
            XCTAssertEqual(echo.method, "PUT", "\(status)")
            XCTAssertEqual(echo.json, ["k": 1], "\(status)")
        }
    }

    /// Requests one after the other reuse one pooled easy handle; a plain GET after a plain GET
    /// skips `curl_easy_reset`. Nothing of an earlier request may reach a later one.
    func testThatAPooledHandleKeepsNothingOfTheRequestBefore() throws {
        func echo(_ request: URLRequest, deadline: TimeInterval? = 10) throws -> Echo {
            try JSONDecoder().decode(Echo.self, from: try execute(request, deadline: deadline).get().data)
        }
        var put = URLRequest(url: server.url("/echo")).with(method: "PUT")
        put.httpBody = Data("body".utf8)
        XCTAssertEqual(try echo(put).method, "PUT")
        let get = try echo(URLRequest(url: server.url("/echo")))
        XCTAssertEqual(get.method, "GET")
        XCTAssertNil(get.body.flatMap { $0.isEmpty ? nil : $0 }, "the PUT's body was sent again")
        // A short total limit on one GET, none on the next (which takes longer than that limit).
        XCTAssertEqual(try echo(URLRequest(url: server.url("/echo")), deadline: 0.5).method, "GET")
        XCTAssertEqual(try echo(URLRequest(url: server.url("/delay/900")), deadline: nil).method, "GET")
        let head = try execute(URLRequest(url: server.url("/bytes/10")).with(method: "HEAD")).get()
        XCTAssertEqual(head.data, Data())
        XCTAssertEqual(try execute(URLRequest(url: server.url("/bytes/10"))).get().data.count, 10)
        XCTAssertEqual(transport.activeTransferCount, 0)
    }

    /// The scheme is read from the URL's string, not parsed again: in any case, and only a whole
    /// `http:` or `https:`.
    func testThatTheSchemeIsRecognisedInAnyCaseAndOnlyWhole() throws {
        XCTAssertEqual(
            try execute(URLRequest(url: try XCTUnwrap(URL(string: "HTTP://127.0.0.1:\(server.port)/bytes/3")))).get()
                .data.count, 3)
        for address in ["http://a/", "HTTPS://a/", "Https://a/"] {
            XCTAssertTrue(CurlTransfer.isHTTPOrHTTPS(address), address)
        }
        for address in ["httpx://a/", "http", "https", "htt://a/", "ftp://a/", "", "//a/", "h\u{00E9}ttp://a/"] {
            XCTAssertFalse(CurlTransfer.isHTTPOrHTTPS(address), address)
        }
        XCTAssertTrue(CurlTransfer.startsWithScheme("HTTPS://a/", "https"))
        XCTAssertFalse(CurlTransfer.startsWithScheme("http://a/", "https"))
        let result = try execute(URLRequest(url: try XCTUnwrap(URL(string: "httpx://127.0.0.1:\(server.port)/"))))
        XCTAssertEqual(result.failureReason, .unsupportedURL)
    }

    func testThatRepeatedResponseHeadersAreJoinedAndLargeBodiesArriveIntact() throws {
        var configuration = CurlTransport.Configuration()
        configuration.cookieStorage = nil  // the cookies below stay out of the shared storage
        transport = try CurlTransport(configuration: configuration)
        server.route("/cookies") { _ in
            .response(
                status: 200, headers: [("Set-Cookie", "a=1"), ("X-Tag", "x"), ("set-cookie", "b=2")], body: Data())
        }
        let response = try execute(URLRequest(url: server.url("/cookies"))).get().response
        XCTAssertEqual(response.value(forHTTPHeaderField: "Set-Cookie"), "a=1, b=2")
        XCTAssertEqual(response.value(forHTTPHeaderField: "x-tag"), "x")
        let count = 8 * 1024 * 1024 + 17
        for path in ["/bytes/\(count)", "/bytes/\(count)?chunk=65536"] {
            XCTAssertEqual(
                try execute(URLRequest(url: server.url(path))).get().data, TestServer.patternBytes(count: count))
        }
    }

    func testThatReleasingTheTransportCancelsTransfersInFlight() throws {
        let done = expectation(description: "cancelled")
        let reason = Locked<TransportError.Reason?>(nil)
        _ = transport.execute(
            TransportRequest(
                urlRequest: URLRequest(url: server.url("/fault/stall")), timeouts: Timeouts(total: 30),
                maximumResponseSize: 10)
        ) { result in
            if case .failure(let error) = result { reason.value = error.reason }
            done.fulfill()
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 1, timeout: 10))
        transport = nil
        wait(for: [done], timeout: 10)
        XCTAssertEqual(reason.value, .cancelled)
    }

    func testThatTenThousandRequestsLeakNoHandlesOrDescriptors() throws {
        transport = nil
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        let baseline = try Self.openDescriptorCount()
        var transport: CurlTransport? = try CurlTransport()
        let paths = ["/bytes/100", "/echo", "/status/404", "/fault/close-mid-body", "/delay/1000"]
        let total = 10_000
        // A condition rather than DispatchSemaphore/DispatchGroup, which trap when released unbalanced
        // after a failed run.
        let slots = NSCondition()
        var started = 0
        let completed = Counter()
        let failures = Counter()
        for index in 0..<total {
            slots.lock()
            while started - completed.total >= 16 {
                guard slots.wait(until: Date(timeIntervalSinceNow: 20)) else {
                    slots.unlock()
                    return XCTFail("stuck at \(index)")
                }
            }
            started += 1
            slots.unlock()
            let path = paths[index % paths.count]
            let task = transport?.execute(
                TransportRequest(
                    urlRequest: URLRequest(url: server.url(path)), timeouts: Timeouts(total: 10),
                    maximumResponseSize: 1 << 20)
            ) { result in
                if case .failure(let error) = result { failures.increment("\(error.reason)") }
                completed.increment()
                slots.lock()
                slots.signal()
                slots.unlock()
            }
            // Every /delay/1000 is cancelled at once: its connection is closed mid-request.
            if path.hasPrefix("/delay") { task?.cancel() }
        }
        XCTAssertTrue(Self.eventually { completed.total == total }, "completions missing")
        XCTAssertEqual(failures.value("cancelled"), total / paths.count)
        XCTAssertEqual(failures.total - failures.value("cancelled"), total / paths.count, "close-mid-body only")
        XCTAssertTrue(Self.eventually { transport?.activeTransferCount == 0 }, "handles still alive")
        XCTAssertLessThanOrEqual(try Self.openDescriptorCount(), baseline + 40, "idle pooled connections at most")
        transport = nil
        XCTAssertTrue(server.waitForOpenConnectionCount(atMost: 0, timeout: 10))
        let settled = Self.eventually { (try? Self.openDescriptorCount()) ?? .max <= baseline }
        let after = try Self.openDescriptorCount()
        XCTAssertTrue(settled, "descriptors: \(after) after, \(baseline) before")
    }

    private static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// Polls `condition` for up to 10 seconds.
    private static func eventually(_ condition: () -> Bool) -> Bool {
        let end = Date(timeIntervalSinceNow: 10)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }
}
#endif
