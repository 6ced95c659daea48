#if os(Linux)
@_spi(Internal) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every ``ServerTrustPolicy`` against good and bad certificates, over real TLS on loopback
/// (certificates from `openssl`, servers from Python's `ssl`; see ``TLSFixture``).
final class CurlTrustPolicyTests: TrustPolicyTestCase {
    override func transport(for policy: ServerTrustPolicy) throws -> any Transport {
        try CurlTransport(serverTrustPolicy: policy)
    }

    /// Asserts a TLS failure whose message contains `words` and whose CURLcode is `code`.
    private func assertRejected(
        _ served: TLSFixture.Served, _ policy: ServerTrustPolicy, code: Int, mentioning words: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        guard let error = try assertRefused(served, policy, file: file, line: line) else { return }
        XCTAssertEqual((error.underlyingError as? CurlError)?.code, code, error.message, file: file, line: line)
        XCTAssertTrue(error.message.lowercased().contains(words), error.message, file: file, line: line)
    }

    func testThatTheSystemPolicyRejectsPrivateAndSelfSignedCertificates() throws {
        try assertRejected(.leaf, .system, code: 60, mentioning: "unable to get local issuer")
        try assertRejected(.selfSigned, .system, code: 60, mentioning: "self-signed")
    }

    func testThatCustomRootsFromPEMOrDERAreTrusted() throws { try assertCustomRootsFromPEMOrDERAreTrusted() }

    func testThatCustomRootsStillRejectBadCertificates() throws {
        let roots = try ServerTrustPolicy.customRoots([certificate("ca.pem")])
        try assertRejected(.expired, roots, code: 60, mentioning: "expired")
        try assertRejected(.wrongHost, roots, code: 60, mentioning: "host")
        try assertRejected(.selfSigned, roots, code: 60, mentioning: "self-signed")
        try assertRejected(.leaf, .customRoots([certificate("otherCA.pem")]), code: 60, mentioning: "issuer")
    }

    func testThatHostNameVerificationIsOnlyOffWhenDisabledExplicitly() throws {
        let roots = try ServerTrustPolicy.customRoots([certificate("ca.pem")])
        XCTAssertTrue(roots.validatesHostName)
        let lax = roots.dangerouslyDisablingHostNameVerification()
        XCTAssertFalse(lax.validatesHostName)
        try assertAccepted(.wrongHost, lax)
        try assertRejected(.expired, lax, code: 60, mentioning: "expired")
    }

    func testThatPinnedCertificatesAcceptOnlyChainsContainingThem() throws {
        try assertAccepted(.leaf, .pinnedCertificates([certificate("leaf.pem")]))
        try assertAccepted(.leaf, .pinnedCertificates([certificate("ca.der")]))
        try assertAccepted(.selfSigned, .pinnedCertificates([certificate("selfSigned.pem")]))
        try assertRejected(.expired, .pinnedCertificates([certificate("leaf.pem")]), code: 60, mentioning: "issuer")
        try assertRejected(.leaf, .pinnedCertificates([certificate("selfSigned.pem")]), code: 60, mentioning: "issuer")
    }

    func testThatPinnedPublicKeysAcceptOnlyTheirKeysOnAVerifiedChain() throws {
        let leafPin = fixture.pin(of: "leaf.pem")
        let otherPin = fixture.pin(of: "selfSigned.pem")
        let roots = [try certificate("ca.pem")]
        XCTAssertEqual(PublicKeyPin(publicKeyOf: try certificate("leaf.pem")).description, leafPin)
        try assertAccepted(.leaf, .pinnedPublicKeys([leafPin], roots: roots))
        try assertAccepted(.leaf, .pinnedPublicKeys([otherPin, leafPin], roots: roots))
        try assertRejected(.leaf, .pinnedPublicKeys([otherPin], roots: roots), code: 90, mentioning: "pinned")
        // A pin adds no trust: the chain must still verify.
        try assertRejected(.leaf, .pinnedPublicKeys([leafPin]), code: 60, mentioning: "issuer")
        try assertRejected(.expired, .pinnedPublicKeys([leafPin], roots: roots), code: 60, mentioning: "expired")
    }

    func testThatAPinnedClientDecodesThroughTheWholeStack() async throws {
        struct Answer: Decodable, Sendable { let ok: Bool }
        struct GetAnswer: APIRequest {
            typealias Response = Answer
            var path: RequestPath { "/json" }
        }
        let transport = try CurlTransport(
            serverTrustPolicy: .pinnedPublicKeys([fixture.pin(of: "leaf.pem")], roots: [certificate("ca.pem")]))
        let base = fixture.url(.leaf).deletingLastPathComponent()
        let client = APIClient(configuration: .init(baseURL: base, transport: transport))
        let answer = try await client.value(for: GetAnswer())
        XCTAssertTrue(answer.ok)
    }

    func testThatHTTP2IsUsedAndMultiplexedWhenTheServerOffersIt() throws {
        guard let url = fixture.http2URL else {
            throw XCTSkip("Set ENDPOINTKIT_HTTP2_PYTHON to a Python with hypercorn (.ci/run does).")
        }
        struct Answer: Decodable, Equatable {
            let version: String
            let clientPort: Int
            enum CodingKeys: String, CodingKey {
                case version
                case clientPort = "client_port"
            }
        }
        let transport = try CurlTransport(serverTrustPolicy: .customRoots([certificate("ca.pem")]))
        let done = expectation(description: "all")
        done.expectedFulfillmentCount = 16
        let answers = Locked<[Answer]>([])
        for index in 0..<16 {
            let request = TransportRequest(
                urlRequest: URLRequest(url: url.appendingPathComponent("\(index)")), timeouts: Timeouts(total: 10),
                maximumResponseSize: 1 << 20)
            _ = transport.execute(request) { result in
                if let data = try? result.get().data, let answer = try? JSONDecoder().decode(Answer.self, from: data) {
                    answers.value.append(answer)
                }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(answers.value.count, 16)
        XCTAssertEqual(Set(answers.value.map(\.version)), ["2"])
        XCTAssertEqual(Set(answers.value.map(\.clientPort)).count, 1, "16 streams on one connection")
    }

    func testThatURLSessionOnLinuxRefusesPoliciesItCannotEnforce() throws {
        let system = try URLSessionTransport(serverTrustPolicy: .system)
        let done = expectation(description: "completion")
        let reason = Locked<TransportError.Reason?>(nil)
        _ = system.execute(
            TransportRequest(
                urlRequest: URLRequest(url: fixture.url(.leaf)), timeouts: Timeouts(total: 10),
                maximumResponseSize: 1 << 20)
        ) { result in
            if case .failure(let error) = result { reason.value = error.reason }
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        XCTAssertEqual(reason.value, .tls, "a private CA is not in the system store")
        let custom = try ServerTrustPolicy.customRoots([certificate("ca.pem")])
        for policy in [custom, ServerTrustPolicy.system.dangerouslyDisablingHostNameVerification()] {
            XCTAssertThrowsError(try URLSessionTransport(serverTrustPolicy: policy)) { error in
                guard case .unsupportedTrustPolicy(let detail) = error as? TransportConfigurationError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(detail.contains("CurlTransport"), detail)
            }
        }
    }
}
#endif
