// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET per ``ServerTrustPolicy`` to the servers of ``TLSFixture``, through a transport the
/// subclass makes for the policy: the base of ``CurlTrustPolicyTests`` (libcurl) and
/// ``URLSessionTrustPolicyTests`` (URLSession on Apple platforms), which run the same matrix.
class TrustPolicyTestCase: XCTestCase {
    /// The certificates and servers.
    private(set) var fixture: TLSFixture!

    override func setUpWithError() throws {
        fixture = try TLSFixture.get()
    }

    /// A new transport enforcing `policy`; subclasses make theirs.
    /// - Throws: `XCTSkip` here, where no transport is under test.
    func transport(for policy: ServerTrustPolicy) throws -> any Transport {
        throw XCTSkip("\(type(of: self)) makes no transport")
    }

    /// The CA from a PEM or a DER file, for 127.0.0.1 and localhost, and a self-signed server
    /// certificate as its own root: all accepted, on every transport.
    func assertCustomRootsFromPEMOrDERAreTrusted() throws {
        try assertAccepted(.leaf, .customRoots([certificate("ca.pem")]))
        try assertAccepted(.leaf, .customRoots([certificate("ca.der")]))
        try assertAccepted(.leaf, host: "localhost", .customRoots([certificate("ca.der")]))
        try assertAccepted(.selfSigned, .customRoots([certificate("selfSigned.pem")]))
    }

    /// One of the fixture's certificate files.
    func certificate(_ name: String) throws -> TLSCertificate {
        try TLSCertificate(data: fixture.file(name))
    }

    /// Sends one GET to `served` through a new transport with `policy`.
    func fetch(
        _ served: TLSFixture.Served, host: String = "127.0.0.1", policy: ServerTrustPolicy
    ) throws -> Result<TransportResponse, TransportError> {
        try XCTUnwrap(fixture.fetch(fixture.url(served, host: host), through: transport(for: policy)))
    }

    /// Asserts a `200` from `served`.
    func assertAccepted(
        _ served: TLSFixture.Served, host: String = "127.0.0.1", _ policy: ServerTrustPolicy,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try fetch(served, host: host, policy: policy)
        XCTAssertEqual(try? result.get().response.statusCode, 200, "\(result)", file: file, line: line)
    }

    /// Asserts a TLS failure from `served` and returns it (`nil` when the server was accepted).
    @discardableResult
    func assertRefused(
        _ served: TLSFixture.Served, _ policy: ServerTrustPolicy, file: StaticString = #filePath, line: UInt = #line
    ) throws -> TransportError? {
        guard case .failure(let error) = try fetch(served, policy: policy) else {
            XCTFail("\(served) was accepted", file: file, line: line)
            return nil
        }
        XCTAssertEqual(error.reason, .tls, error.message, file: file, line: line)
        return error
    }
}
#endif
