#if canImport(Security)
import EndpointKit
import Foundation
import XCTest

/// Apple platforms: every ``ServerTrustPolicy`` through ``URLSessionTransport``'s server-trust
/// challenge (`ServerTrustPolicy+Security.swift`), against the servers and certificates of
/// ``TLSFixture``, with the outcomes ``CurlTrustPolicyTests`` expects from libcurl on Linux: the
/// two transports trust the same servers. Run by the macOS job of `.github/workflows/apple.yml`,
/// never on Linux.
final class URLSessionTrustPolicyTests: XCTestCase {
    private var fixture: TLSFixture!

    override func setUpWithError() throws {
        fixture = try TLSFixture.get()
    }

    private func certificate(_ name: String) throws -> TLSCertificate {
        try TLSCertificate(data: fixture.file(name))
    }

    /// Sends one GET through a new ``URLSessionTransport`` with `policy`.
    private func fetch(
        _ served: TLSFixture.Served, host: String = "127.0.0.1", policy: ServerTrustPolicy
    ) throws -> Result<TransportResponse, TransportFailure> {
        let transport = try URLSessionTransport(serverTrustPolicy: policy)
        return try XCTUnwrap(fixture.fetch(fixture.url(served, host: host), through: transport))
    }

    private func assertAccepted(
        _ served: TLSFixture.Served, host: String = "127.0.0.1", _ policy: ServerTrustPolicy,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try fetch(served, host: host, policy: policy)
        XCTAssertEqual(try? result.get().response.statusCode, 200, "\(result)", file: file, line: line)
    }

    private func assertRejected(
        _ served: TLSFixture.Served, _ policy: ServerTrustPolicy, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        guard case .failure(let error) = try fetch(served, policy: policy) else {
            return XCTFail("\(served) was accepted", file: file, line: line)
        }
        XCTAssertEqual(error.reason, .tls, error.message, file: file, line: line)
    }

    func testThatTheSystemPolicyRejectsPrivateAndSelfSignedCertificates() throws {
        try assertRejected(.leaf, .system)
        try assertRejected(.selfSigned, .system)
    }

    func testThatCustomRootsFromPEMOrDERAreTrusted() throws {
        try assertAccepted(.leaf, .customRoots([certificate("ca.pem")]))
        try assertAccepted(.leaf, .customRoots([certificate("ca.der")]))
        try assertAccepted(.leaf, host: "localhost", .customRoots([certificate("ca.der")]))
        try assertAccepted(.selfSigned, .customRoots([certificate("selfSigned.pem")]))
    }

    func testThatCustomRootsStillRejectBadCertificates() throws {
        let roots = try ServerTrustPolicy.customRoots([certificate("ca.pem")])
        try assertRejected(.expired, roots)
        try assertRejected(.wrongHost, roots)
        try assertRejected(.selfSigned, roots)
        try assertRejected(.leaf, .customRoots([certificate("otherCA.pem")]))
    }

    func testThatHostNameVerificationIsOnlyOffWhenDisabledExplicitly() throws {
        let lax = try ServerTrustPolicy.customRoots([certificate("ca.pem")]).dangerouslyDisablingHostNameVerification()
        try assertAccepted(.wrongHost, lax)
        try assertRejected(.expired, lax)
    }

    func testThatPinnedCertificatesAreTheOnlyAnchors() throws {
        try assertAccepted(.leaf, .pinnedCertificates([certificate("leaf.pem")]))
        try assertAccepted(.leaf, .pinnedCertificates([certificate("ca.der")]))
        try assertAccepted(.selfSigned, .pinnedCertificates([certificate("selfSigned.pem")]))
        try assertRejected(.expired, .pinnedCertificates([certificate("leaf.pem")]))
        try assertRejected(.leaf, .pinnedCertificates([certificate("selfSigned.pem")]))
    }

    func testThatPinnedPublicKeysAcceptOnlyTheirKeysOnAVerifiedChain() throws {
        let leafPin = fixture.pin(of: "leaf.pem")
        let otherPin = fixture.pin(of: "selfSigned.pem")
        let roots = [try certificate("ca.pem")]
        try assertAccepted(.leaf, .pinnedPublicKeys([leafPin], roots: roots))
        try assertAccepted(.leaf, .pinnedPublicKeys([otherPin, leafPin], roots: roots))
        try assertRejected(.leaf, .pinnedPublicKeys([otherPin], roots: roots))
        // A pin adds no trust: the chain must still verify, here against the system's roots.
        try assertRejected(.leaf, .pinnedPublicKeys([leafPin]))
        try assertRejected(.expired, .pinnedPublicKeys([leafPin], roots: roots))
    }
}
#endif
