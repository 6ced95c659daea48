import Foundation
import XCTest

@testable import EndpointKitBench

/// The soak's bookkeeping catches what it is there to catch: a second completion, a lost one, an
/// outcome the route cannot give, a registry or descriptor count that does not come back.
final class SoakReportTests: XCTestCase {
    private let settings = SoakSettings(
        requests: 3, inFlight: 2, seed: 1, transport: .urlSession, baseURL: URL(fileURLWithPath: "/"))

    private func step(_ index: Int, _ kind: SoakKind, cancelled: Bool = false) -> SoakStep {
        SoakStep(
            index: index, kind: kind,
            request: SoakRequest(
                route: kind.path, query: [:], shares: false, totalTimeout: nil, envelope: nil, retryPolicy: nil),
            cancelAfter: cancelled ? 0.01 : nil)
    }

    func testThatTheLedgerCountsASecondCompletionAsADuplicateAndFreesNoSlotForIt() {
        let ledger = SoakLedger(requests: 3)
        XCTAssertTrue(ledger.record(step(0, .json), .success, detail: "success"))
        XCTAssertFalse(ledger.record(step(0, .json), .cancelled, detail: "late cancel"))
        XCTAssertTrue(ledger.record(step(1, .stall, cancelled: true), .cancelled, detail: "cancelled"))

        XCTAssertEqual(ledger.duplicates, [0])
        XCTAssertEqual(ledger.completions, 3)
        XCTAssertEqual(ledger.completedRequests, 2)
        XCTAssertEqual(ledger.missing(sent: 3), [2])
        XCTAssertEqual(ledger.outcomes, [.success: 1, .cancelled: 1])
        XCTAssertEqual(ledger.unexpected, [:])
    }

    func testThatTheLedgerFlagsAnOutcomeTheRouteCannotGive() {
        let ledger = SoakLedger(requests: 2)
        _ = ledger.record(step(0, .json), .transport(.timedOut), detail: "timed out")
        _ = ledger.record(step(1, .stall), .cancelled, detail: "cancelled without a planned cancel")

        XCTAssertEqual(ledger.unexpected, ["json -> timedOut": 1, "stall -> cancelled": 1])
        XCTAssertEqual(ledger.unexpectedExamples["json -> timedOut"], "timed out")
    }

    func testThatEveryFailedCheckIsReported() {
        let report = SoakReport(
            settings: settings, sent: 3, completions: 3, completedRequests: 2, missing: [2], duplicates: [0],
            outcomes: [.success: 2], unexpected: ["json -> timedOut": 1], unexpectedExamples: [:], clientInFlight: 1,
            transportActive: 0, fileDescriptors: (10, 30), residentKiB: (1000, 1000 + 200 * 1024, 300 * 1024),
            wallSeconds: 1)

        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.failures.count, 6, report.failures.joined(separator: "\n"))
        XCTAssertTrue(report.lines.contains { $0.contains("FAIL") })
    }

    func testThatACleanRunPasses() {
        let report = SoakReport(
            settings: settings, sent: 3, completions: 3, completedRequests: 3, missing: [], duplicates: [],
            outcomes: [.success: 3], unexpected: [:], unexpectedExamples: [:], clientInFlight: 0, transportActive: 0,
            fileDescriptors: (10, 12), residentKiB: (1000, 2000, 3000), wallSeconds: 1)

        XCTAssertEqual(report.failures, [])
        XCTAssertTrue(report.lines.contains { $0.contains("PASS") })
    }
}
