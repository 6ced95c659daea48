import BenchTestServer
import Foundation
import XCTest

@testable import EndpointKitBench

/// The short soak: 5,000 requests, 64 in flight, with the faults, cancels and timeouts of the
/// full one (`endpointkit-bench --soak`), against the in-process test server, once per transport.
///
/// The engine is the benchmark's own (``SoakRunner``); this test only picks smaller numbers. The
/// descriptor and memory checks compare the process before and after the soak alone, after a
/// warm-up, so whatever earlier tests left behind is not counted.
final class SoakTests: XCTestCase {
    /// A fixed mix, so a failure can be replayed: `endpointkit-bench --soak --seed 20240601 --requests 5000`.
    private static let seed: UInt64 = 20_240_601

    #if os(Linux)
    func testThatEveryRequestCompletesExactlyOnceAndNothingLeaksOverCurlTransport() throws {
        try soak(over: .curl)
    }
    #endif

    func testThatEveryRequestCompletesExactlyOnceAndNothingLeaksOverURLSessionTransport() throws {
        try soak(over: .urlSession)
    }

    #if os(Linux)
    func testThatTheSoakThroughEveryImpairedLinkLosesNothingOverCurlTransport() throws {
        try impairedSoaks(over: .curl)
    }
    #endif

    func testThatTheSoakThroughEveryImpairedLinkLosesNothingOverURLSessionTransport() throws {
        try impairedSoaks(over: .urlSession)
    }

    /// The short soak through each named link profile (``LinkProfile/named``) on a clock ten
    /// times faster, with its resets and stalls made frequent enough (80 per MiB) that a short run
    /// of about 0.15 MiB meets them: the long versions are `endpointkit-bench --soak --profile all`.
    private func impairedSoaks(over transport: SoakTransport) throws {
        let server = try TestServer()
        defer { server.stop() }
        SoakRoutes.install(on: server)
        for profile in LinkProfile.named {
            // GIVEN the profile between client and server
            var link = profile.scaled(by: 0.1)
            link.resetsPerMebibyte = profile.resetsPerMebibyte > 0 ? 80 : 0
            link.stallsPerMebibyte = profile.stallsPerMebibyte > 0 ? 80 : 0
            // A half-open connection holds its request until the request's deadline: left to the
            // bench's long run and to the tests of the impairer and of the classification.
            link.halfOpensPerMebibyte = 0
            var settings = SoakSettings(
                requests: 400, inFlight: 32, seed: Self.seed, transport: transport, baseURL: server.baseURL, link: link)
            settings.timeLimit = 120
            settings.warmup = 64  // the process was warmed up by the first profile's run
            // Generous next to the compressed link (at most a 120 ms round trip) and a slow machine.
            settings.requestTimeout = 10
            if ProcessMemory.isSanitized { settings.residentMemoryBaseToleranceKiB = 1 << 40 }

            // WHEN the soak's requests cross it
            let report = try SoakRunner.run(settings)

            // THEN every request completed exactly once with an outcome its kind or a fault of the
            // link explains, and nothing stays registered or open
            let summary = report.lines.joined(separator: "\n")
            XCTAssertEqual(report.failures, [], "\(profile.name)\n\(summary)")
            XCTAssertEqual(report.completions, 400, "\(profile.name)\n\(summary)")
            XCTAssertEqual(report.duplicates, [], "\(profile.name)\n\(summary)")
            if profile.resetsPerMebibyte > 0 {
                XCTAssertGreaterThan(report.link?.statistics.resets ?? 0, 0, "\(profile.name)\n\(summary)")
            }
            if profile.stallsPerMebibyte > 0 {
                XCTAssertGreaterThan(report.link?.statistics.stalls ?? 0, 0, "\(profile.name)\n\(summary)")
            }
            if SoakLink.outcomes(of: profile).isEmpty {
                XCTAssertEqual(report.attributed, [:], "\(profile.name)\n\(summary)")
            }
            print(summary)
        }
    }

    private func soak(over transport: SoakTransport) throws {
        // GIVEN the test server with the soak's routes, and a generous overall limit (the soak
        // itself takes seconds; the limit only bounds a run that hangs)
        let server = try TestServer()
        defer { server.stop() }
        SoakRoutes.install(on: server)
        var settings = SoakSettings(
            requests: 5000, inFlight: 64, seed: Self.seed, transport: transport, baseURL: server.baseURL)
        settings.timeLimit = 120
        if ProcessMemory.isSanitized {
            // Shadow memory and ASan's quarantine of freed blocks make resident memory meaningless
            // under a sanitizer; every other check stands (and the sanitizer watches for races
            // and memory errors meanwhile).
            settings.residentMemoryBaseToleranceKiB = 1 << 40
        }

        // WHEN the requests run, with some cancelled and some timing out
        let report = try SoakRunner.run(settings)

        // THEN each completed exactly once with an outcome its route can give, the registries are
        // empty, and descriptors and memory are back near where they started
        let summary = report.lines.joined(separator: "\n")
        XCTAssertEqual(report.failures, [], summary)
        XCTAssertEqual(report.sent, 5000, summary)
        XCTAssertEqual(report.completions, 5000, summary)
        XCTAssertEqual(report.duplicates, [], summary)
        XCTAssertEqual(report.clientInFlight, 0, summary)
        XCTAssertEqual(report.transportActive, 0, summary)
        // The mix really had every kind of ending: successes, server failures, cancels, timeouts
        // and lost connections.
        for outcome: SoakOutcome in [
            .success, .serverFailure, .cancelled, .transport(.timedOut), .transport(.connectionLost),
            .transport(.badResponse), .transport(.decodingFailed),
        ] {
            XCTAssertGreaterThan(report.outcomes[outcome] ?? 0, 0, "\(outcome)\n\(summary)")
        }
        print(summary)
    }
}
