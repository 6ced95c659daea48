import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

/// A path monitor that finds no network is not trusted where it cannot know (watchOS, TN3135):
/// the reading is `.unknown`, and a client that fails fast while offline, and an outbox, send as
/// they would without a monitor. The mapping is the one the watchOS build uses; here it is fed to
/// a monitor through its probe, and the requests go to the loopback server.
final class UntrustedPathMonitorTests: OutboxTestCase {
    func testThatAPathWithoutANetworkIsOfflineOnlyWhereSuchAReadingCanBeTrusted() {
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: true, trustingUnsatisfied: true), .online)
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: true, trustingUnsatisfied: false), .online)
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: false, trustingUnsatisfied: true), .offline)
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: false, trustingUnsatisfied: false), .unknown)
        #if os(watchOS)
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: false), .unknown)
        #else
        XCTAssertEqual(ConnectivityMonitor.status(pathSatisfied: false), .offline)
        #endif
    }

    /// A monitor fed what an untrusted path monitor reports: never a usable path.
    private func untrustedMonitor() -> ConnectivityMonitor {
        ConnectivityMonitor(pollingInterval: 0.02) {
            ConnectivityMonitor.status(pathSatisfied: false, trustingUnsatisfied: false)
        }
    }

    func testThatAClientThatFailsFastWhileOfflineStillSendsWhenTheReadingIsUnknown() async {
        // GIVEN a client that fails fast while offline, watched by an untrusted path monitor
        let monitor = untrustedMonitor()
        XCTAssertEqual(monitor.status, .unknown)
        let client = makeClient {
            $0.connectivity = monitor
            $0.failsFastWhenOffline = true
        }

        // WHEN it sends THEN the request reaches the server
        server.route("/ping") { _ in .json(["ok": true]) }
        let result = await client.send(Endpoint<JSONValue>(path: "/ping"))
        XCTAssertNil(result.failure, "an unknown reading is not offline")
        XCTAssertEqual(result.value, ["ok": true])
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatAnOutboxDeliversWhenTheReadingIsUnknown() throws {
        // GIVEN an outbox watched by an untrusted path monitor
        let outbox = try makeOutbox(monitor: untrustedMonitor())

        // WHEN entries are enqueued THEN they are delivered, in order
        for number in 1...3 { try outbox.enqueue(Self.item(number)) }
        XCTAssertTrue(ledger.waitForApplied(count: 3, timeout: 10))
        XCTAssertEqual(appliedNumbers, [1, 2, 3])
        XCTAssertTrue(waitUntil { outbox.pending.isEmpty })
    }
}
