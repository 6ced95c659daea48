import BenchTestServer
import XCTest

@testable import EndpointKitBench

final class BenchOptionsTests: XCTestCase {
    func testThatTheDefaultsAreTheIssuesCounts() throws {
        let options = try BenchOptions(arguments: [])
        XCTAssertEqual(options.sequentialRequests, 2000)
        XCTAssertEqual(options.concurrentRequests, 10_000)
        XCTAssertEqual(options.scaleSteps.map(\.requests), [1000, 10_000, 100_000])
        XCTAssertEqual(options.scaleSteps.map(\.chunks), [10, 10, 10])
        XCTAssertEqual(options.decodeObjects, 20_000)
        XCTAssertEqual(options.transferSizeMiB, 1024)
        XCTAssertEqual(options.cacheRequests, 2000)
        XCTAssertTrue(options.includes(number: 4, name: "transfer"))
    }

    func testThatRequestsCapsEveryCountAndDropsRepeatedScaleSteps() throws {
        let options = try BenchOptions(arguments: ["--quick", "--requests", "20", "--rounds", "1"])
        XCTAssertEqual(options.sequentialRequests, 20)
        XCTAssertEqual(options.concurrentRequests, 20)
        XCTAssertEqual(options.scaleSteps.map(\.requests), [20])
        XCTAssertEqual(options.scaleSteps.map(\.chunks), [1])
        XCTAssertEqual(options.warmupRequests, 20)
        XCTAssertEqual(options.transferSizeMiB, 64)
        XCTAssertEqual(try BenchOptions(arguments: ["--quick", "--transfer-mb", "8"]).transferSizeMiB, 8)
    }

    func testThatProfilesAreTakenByNameOrAllAndShortenTheSoak() throws {
        let plain = try BenchOptions(arguments: ["--soak"])
        XCTAssertEqual(plain.soakLinks, [nil])
        XCTAssertEqual(plain.soakRequests, 100_000)
        let one = try BenchOptions(arguments: ["--soak", "--profile", "satellite"])
        XCTAssertEqual(one.soakLinks, [.satellite])
        XCTAssertEqual(one.soakRequests, 10_000)
        XCTAssertEqual(try BenchOptions(arguments: ["--soak", "--profile", "all"]).profiles, LinkProfile.named)
        XCTAssertThrowsError(try BenchOptions(arguments: ["--soak", "--profile", "dial-up"]))
        let transfers = try BenchOptions(arguments: ["--impaired-transfers"])
        XCTAssertTrue(transfers.impairedTransfers)
        XCTAssertEqual(transfers.transferLinks, [.handover])
        XCTAssertEqual(transfers.impairedTransferMiB, 100)
        let scaled = try BenchOptions(arguments: ["--soak", "--profile", "slow-mobile", "--fault-scale", "10"])
        XCTAssertEqual(scaled.soakLinks.first??.resetsPerMebibyte, 5)
        XCTAssertThrowsError(try BenchOptions(arguments: ["--soak", "--fault-scale", "-1"]))
    }

    func testThatNginxIsOffUnlessAsked() throws {
        XCTAssertFalse(try BenchOptions(arguments: []).nginx)
        XCTAssertTrue(try BenchOptions(arguments: ["--quick", "--nginx"]).nginx)
    }

    func testThatScenariosAreSelectedByNameOrNumber() throws {
        let options = try BenchOptions(arguments: ["--scenario", "decode", "--scenario", "6"])
        XCTAssertTrue(options.includes(number: 3, name: "decode"))
        XCTAssertTrue(options.includes(number: 6, name: "scale"))
        XCTAssertFalse(options.includes(number: 1, name: "sequential"))
    }

    func testThatBadArgumentsAreRefused() {
        XCTAssertThrowsError(try BenchOptions(arguments: ["--scenario", "nope"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--requests", "0"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--requests"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--fast"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--transfer-mb", "-1"]))
    }

    func testThatTheSoakDefaultsToTheIssuesCountsAndTakesItsOwnOptions() throws {
        let defaults = try BenchOptions(arguments: ["--soak"])
        XCTAssertTrue(defaults.soak)
        XCTAssertEqual(defaults.soakRequests, 100_000)
        XCTAssertEqual(defaults.soakInFlight, 64)
        XCTAssertEqual(defaults.soakTransports, SoakTransport.available)
        XCTAssertNil(defaults.seed)

        let options = try BenchOptions(arguments: [
            "--soak", "--requests", "500", "--in-flight", "8", "--transport", "urlsession", "--seed", "42",
        ])
        XCTAssertEqual(options.soakRequests, 500)
        XCTAssertEqual(options.soakInFlight, 8)
        XCTAssertEqual(options.soakTransports, [.urlSession])
        XCTAssertEqual(options.seed, 42)
        XCTAssertEqual(try BenchOptions(arguments: ["--transport", "both"]).soakTransports, SoakTransport.available)

        XCTAssertThrowsError(try BenchOptions(arguments: ["--transport", "nghttp"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--seed", "-3"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--in-flight", "0"]))
    }

    func testThatASoakPlanIsFixedByItsSeedAndFollowsTheWeights() {
        func kinds(seed: UInt64) -> [SoakKind] {
            var plan = SoakPlan(seed: seed)
            return (0..<2000).map { plan.step($0).kind }
        }
        XCTAssertEqual(kinds(seed: 7), kinds(seed: 7))
        XCTAssertNotEqual(kinds(seed: 7), kinds(seed: 8))
        let counts = Dictionary(kinds(seed: 7).map { ($0, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(Set(counts.keys), Set(SoakKind.allCases))
        // json has weight 36 of 100: about 720 of 2000.
        XCTAssertEqual(Double(counts[.json] ?? 0), 720, accuracy: 100)
    }

    func testThatTheRawClientParsesAResponseHead() {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 12\r\n\r\n"
        XCTAssertEqual(RawHTTPConnection.endOfHead(in: Array((head + "{}").utf8)), head.utf8.count)
        XCTAssertNil(RawHTTPConnection.endOfHead(in: Array("HTTP/1.1 200 OK\r\n".utf8)))
        XCTAssertEqual(RawHTTPConnection.status(of: head), 200)
        XCTAssertEqual(RawHTTPConnection.contentLength(of: head), 12)
    }

    func testThatTheMedianOfAnEvenCountIsTheMeanOfTheMiddlePair() {
        XCTAssertEqual(SideResult.median([3, 1, 2]), 2)
        XCTAssertEqual(SideResult.median([4, 1, 3, 2]), 2.5)
        XCTAssertTrue(SideResult.median([]).isNaN)
    }

    func testThatInstructionsRunsNAndTwiceNRequestsAfterAWarmUp() throws {
        let full = try BenchOptions(arguments: ["--instructions"])
        XCTAssertTrue(full.instructions)
        XCTAssertEqual(full.instructionRequests, BenchOptions.defaultInstructionRequests)
        XCTAssertEqual(full.instructionWarmup, 100)
        XCTAssertEqual(try BenchOptions(arguments: ["--instructions", "--quick"]).instructionRequests, 200)
        let small = try BenchOptions(arguments: ["--instructions", "--requests", "20"])
        XCTAssertEqual(small.instructionRequests, 20)
        // At least 16, so that the 16 connections are open before the measured requests.
        XCTAssertEqual(small.instructionWarmup, 20)
        XCTAssertEqual(try BenchOptions(arguments: ["--instructions", "--requests", "5"]).instructionWarmup, 16)
    }

    func testThatTheURLSessionClientsAreCountedOverAQuarterOfTheRequests() {
        XCTAssertEqual(InstructionsMode.requests(for: .endpointkit, of: 1000), 1000)
        XCTAssertEqual(InstructionsMode.requests(for: .bareWithHeaders, of: 1000), 1000)
        XCTAssertEqual(InstructionsMode.requests(for: .endpointkitURLSession, of: 1000), 250)
        XCTAssertEqual(InstructionsMode.requests(for: .urlSession, of: 1000), 250)
        // At least 20, so that a smoke run still measures something.
        XCTAssertEqual(InstructionsMode.requests(for: .urlSession, of: 20), 20)
    }

    func testThatTheInstructionsChildTakesItsClientURLAndWarmUp() throws {
        let child = try BenchOptions(arguments: [
            "--instructions-child", "bare", "--url", "http://127.0.0.1:8080", "--requests", "40", "--warmup", "0",
            "--in-flight", "16",
        ])
        XCTAssertEqual(child.instructionsChild, .bare)
        XCTAssertEqual(child.url, "http://127.0.0.1:8080")
        XCTAssertEqual(child.instructionRequests, 40)
        XCTAssertEqual(child.warmup, 0)
        XCTAssertEqual(child.inFlight, 16)
        XCTAssertEqual(
            try BenchOptions(arguments: ["--instructions-child", "endpointkit-urlsession"]).instructionsChild,
            .endpointkitURLSession)
        XCTAssertEqual(
            try BenchOptions(arguments: ["--instructions-child", "urlsession"]).instructionsChild, .urlSession)
        XCTAssertThrowsError(try BenchOptions(arguments: ["--instructions-child", "alamofire"]))
        XCTAssertThrowsError(try BenchOptions(arguments: ["--warmup", "-1"]))
    }

    func testThatCallgrindsTotalIsReadFromItsSummaryOrTotalsLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("callgrind-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("version: 1\nevents: Ir\nfn=main\n0 12\ntotals: 4242\n".utf8).write(to: file)
        XCTAssertEqual(InstructionsMode.totalInstructions(inProfile: file), 4242)
        try Data("events: Ir\nsummary: 123456789\ntotals: 1\n".utf8).write(to: file)
        XCTAssertEqual(InstructionsMode.totalInstructions(inProfile: file), 123_456_789)
        try Data().write(to: file)
        XCTAssertNil(InstructionsMode.totalInstructions(inProfile: file))
    }
}
