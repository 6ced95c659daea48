import Foundation
import XCTest

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``SessionDeadlines``, the one timer behind URLSessionTransport's connect and total limits:
/// an earlier deadline armed after a later one still fires first, and a disarmed limit never
/// fires. Transfers here are never started; a limit that runs out completes them.
final class SessionDeadlinesTests: XCTestCase {
    /// A transfer that is never sent, and what it completed with.
    private final class Probe: Sendable {
        let results = Locked<[Result<TransportResponse, TransportError>]>([])
        let completed: XCTestExpectation
        let transfer: SessionTransfer

        init(_ name: String) {
            let results = self.results
            let completed = XCTestExpectation(description: name)
            self.completed = completed
            let request = TransportRequest(
                urlRequest: URLRequest(url: URL(string: "http://127.0.0.1:9/\(name)")!), maximumResponseSize: 1024)
            transfer = SessionTransfer(request: request) { result in
                results.withLock { $0.append(result) }
                completed.fulfill()
            }
        }

        var timeoutLimit: Timeouts.Limit? {
            guard case .failure(let error)? = results.withLock({ $0.first }) else { return nil }
            return error.timeoutLimit
        }
    }

    func testThatAnEarlierDeadlineArmedAfterALaterOneFiresFirst() {
        let late = Probe("late")
        let early = Probe("early")
        SessionDeadlines.shared.arm(late.transfer, .connect, after: 60)
        SessionDeadlines.shared.arm(early.transfer, .total, after: 0.2)
        wait(for: [early.completed], timeout: 20)
        XCTAssertEqual(early.timeoutLimit, .total)
        XCTAssertTrue(late.results.withLock { $0.isEmpty }, "the 60 s limit fired early")
        late.transfer.cancel()
        XCTAssertEqual(late.results.withLock { $0.count }, 1)
    }

    func testThatADisarmedLimitNeverFiresAndTheNextOneStillDoes() {
        let disarmed = Probe("disarmed")
        let next = Probe("next")
        SessionDeadlines.shared.arm(disarmed.transfer, .connect, after: 0.1)
        SessionDeadlines.shared.arm(next.transfer, .connect, after: 0.4)
        SessionDeadlines.shared.disarm(disarmed.transfer, .connect)
        // The timer still fires at the disarmed deadline, finds nothing due, and waits for the next.
        wait(for: [next.completed], timeout: 20)
        XCTAssertEqual(next.timeoutLimit, .connect)
        XCTAssertTrue(disarmed.results.withLock { $0.isEmpty }, "a disarmed limit fired")
        disarmed.transfer.cancel()
    }
}
