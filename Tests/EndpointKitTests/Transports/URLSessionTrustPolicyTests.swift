#if canImport(Security) && os(macOS)  // the TLS servers are other processes
import EndpointKit
import Foundation
import XCTest

/// Apple platforms: every ``ServerTrustPolicy`` through ``URLSessionTransport``'s server-trust
/// challenge (`ServerTrustPolicy+Security.swift`), against the servers and certificates of
/// ``TLSFixture``, with the outcomes ``CurlTrustPolicyTests`` expects from libcurl on Linux: the
/// two transports trust the same servers. Run by the macOS job of `.github/workflows/apple.yml`,
/// never on Linux.
final class URLSessionTrustPolicyTests: TrustPolicyTestCase {
    override func transport(for policy: ServerTrustPolicy) throws -> any Transport {
        try URLSessionTransport(serverTrustPolicy: policy)
    }

    func testThatTheSystemPolicyRejectsPrivateAndSelfSignedCertificates() throws {
        try assertRefused(.leaf, .system)
        try assertRefused(.selfSigned, .system)
    }

    func testThatCustomRootsFromPEMOrDERAreTrusted() throws { try assertCustomRootsFromPEMOrDERAreTrusted() }

    func testThatCustomRootsStillRejectBadCertificates() throws {
        let roots = try ServerTrustPolicy.customRoots([certificate("ca.pem")])
        try assertRefused(.expired, roots)
        try assertRefused(.wrongHost, roots)
        try assertRefused(.selfSigned, roots)
        try assertRefused(.leaf, .customRoots([certificate("otherCA.pem")]))
    }

    func testThatHostNameVerificationIsOnlyOffWhenDisabledExplicitly() throws {
        let lax = try ServerTrustPolicy.customRoots([certificate("ca.pem")]).dangerouslyDisablingHostNameVerification()
        try assertAccepted(.wrongHost, lax)
        try assertRefused(.expired, lax)
    }

    func testThatPinnedCertificatesAreTheOnlyAnchors() throws {
        try assertAccepted(.leaf, .pinnedCertificates([certificate("leaf.pem")]))
        try assertAccepted(.leaf, .pinnedCertificates([certificate("ca.der")]))
        try assertAccepted(.selfSigned, .pinnedCertificates([certificate("selfSigned.pem")]))
        try assertRefused(.expired, .pinnedCertificates([certificate("leaf.pem")]))
        try assertRefused(.leaf, .pinnedCertificates([certificate("selfSigned.pem")]))
    }

    func testThatPinnedPublicKeysAcceptOnlyTheirKeysOnAVerifiedChain() throws {
        let leafPin = fixture.pin(of: "leaf.pem")
        let otherPin = fixture.pin(of: "selfSigned.pem")
        let roots = [try certificate("ca.pem")]
        try assertAccepted(.leaf, .pinnedPublicKeys([leafPin], roots: roots))
        try assertAccepted(.leaf, .pinnedPublicKeys([otherPin, leafPin], roots: roots))
        try assertRefused(.leaf, .pinnedPublicKeys([otherPin], roots: roots))
        // A pin adds no trust: the chain must still verify, here against the system's roots.
        try assertRefused(.leaf, .pinnedPublicKeys([leafPin]))
        try assertRefused(.expired, .pinnedPublicKeys([leafPin], roots: roots))
    }
}
#endif
