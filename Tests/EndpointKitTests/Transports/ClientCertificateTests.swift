#if os(Linux)
import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mutual TLS on ``CurlTransport`` against a loopback server that requires a client certificate
/// issued by its CA (certificates from `openssl` at test time, server from Python's `ssl`; see
/// ``TLSFixture``), and the configuration-time checks of ``ClientCertificate``.
final class ClientCertificateTests: XCTestCase {
    private var fixture: TLSFixture!
    /// A directory holding the fixture's client files, removed after each test.
    private var directory: URL!

    override func setUpWithError() throws {
        fixture = try TLSFixture.get()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("endpointkit-mtls-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["client.pem", "client.key", "clientEncrypted.key", "otherClient.pem", "otherClient.key"] {
            try fixture.file(name).write(to: file(name))
        }
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private var client: ClientCertificate {
        get throws { try ClientCertificate(certificateFile: file("client.pem"), keyFile: file("client.key")) }
    }

    private var otherClient: ClientCertificate {
        get throws { try ClientCertificate(certificateFile: file("otherClient.pem"), keyFile: file("otherClient.key")) }
    }

    /// Sends one GET to the mutual-TLS server through a ``CurlTransport`` trusting the test CA.
    private func fetch(
        host: String = "127.0.0.1", _ configure: (inout CurlTransport.Configuration) -> Void
    ) throws -> Result<TransportResponse, TransportError> {
        var configuration = CurlTransport.Configuration(
            serverTrustPolicy: try .customRoots([TLSCertificate(data: fixture.file("ca.pem"))]))
        configure(&configuration)
        let transport = try CurlTransport(configuration: configuration)
        return try XCTUnwrap(fixture.fetch(fixture.url(.mutual, host: host), through: transport))
    }

    /// Asserts that the server accepted the connection and saw the fixture's `client` certificate.
    private func assertAccepted(
        _ result: Result<TransportResponse, TransportError>, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .success(let response) = result else { return XCTFail("\(result)", file: file, line: line) }
        XCTAssertEqual(response.response.statusCode, 200, file: file, line: line)
        let body = String(decoding: response.data, as: UTF8.self)
        XCTAssertTrue(body.contains(#""client": "EndpointKit Client""#), body, file: file, line: line)
    }

    /// Asserts that the server refused the connection, reported as a TLS failure.
    private func assertRefused(
        _ result: Result<TransportResponse, TransportError>, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .failure(let error) = result else { return XCTFail("accepted: \(result)", file: file, line: line) }
        XCTAssertEqual(error.reason, .tls, error.message, file: file, line: line)
        XCTAssertTrue(error.message.contains("client certificate"), error.message, file: file, line: line)
    }

    /// Asserts that `make` throws ``TransportConfigurationError/unusableClientCertificate(_:_:)``
    /// for `problem`, with a detail containing `words`.
    private func assertUnusable(
        _ problem: ClientCertificateProblem, mentioning words: String, file: StaticString = #filePath,
        line: UInt = #line, _ make: () throws -> Void
    ) {
        XCTAssertThrowsError(try make(), file: file, line: line) { error in
            guard case .unusableClientCertificate(let actual, let detail) = error as? TransportConfigurationError
            else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(actual, problem, detail, file: file, line: line)
            XCTAssertTrue(detail.contains(words), detail, file: file, line: line)
        }
    }

    func testThatTheRightCertificateIsAcceptedFromFilesTextOrAnEncryptedKey() throws {
        let client = try client
        assertAccepted(try fetch { $0.clientCertificate = client })
        let text = try ClientCertificate(
            certificatePEM: String(decoding: fixture.file("client.pem"), as: UTF8.self),
            keyPEM: String(decoding: fixture.file("client.key"), as: UTF8.self))
        assertAccepted(try fetch { $0.clientCertificate = text })
        let encrypted = try ClientCertificate(
            certificateFile: file("client.pem"), keyFile: file("clientEncrypted.key"),
            password: TLSFixture.clientKeyPassword)
        XCTAssertTrue(encrypted.isKeyEncrypted)
        assertAccepted(try fetch { $0.clientCertificate = encrypted })
    }

    func testThatNoCertificateOrOneFromAnotherCAIsRefusedAsATLSFailure() throws {
        assertRefused(try fetch { _ in })
        let other = try otherClient
        assertRefused(try fetch { $0.clientCertificate = other })
    }

    func testThatACertificateForAnotherHostIsNotPresented() throws {
        let (client, other) = (try client, try otherClient)
        // Its own certificate wins over the fallback; host names are case-insensitive.
        assertAccepted(
            try fetch {
                $0.clientCertificate = other
                $0.clientCertificatesByHost = ["127.0.0.1": client]
            })
        assertAccepted(try fetch(host: "localhost") { $0.clientCertificatesByHost = ["LocalHost": client] })
        assertRefused(try fetch { $0.clientCertificatesByHost = ["localhost": client] })
    }

    func testThatBadInputFailsAtConfigurationTimeWithTheReason() throws {
        let missing = file("missing.pem")
        assertUnusable(.unreadableFile, mentioning: missing.path) {
            _ = try ClientCertificate(certificateFile: missing)
        }
        assertUnusable(.noPrivateKey, mentioning: "PRIVATE KEY") {
            _ = try ClientCertificate(certificateFile: self.file("client.pem"))
        }
        assertUnusable(.noCertificate, mentioning: "CERTIFICATE") {
            _ = try ClientCertificate(certificateFile: self.file("client.key"), keyFile: self.file("client.key"))
        }
        assertUnusable(.passwordRequired, mentioning: "give its password") {
            _ = try ClientCertificate(
                certificateFile: self.file("client.pem"), keyFile: self.file("clientEncrypted.key"))
        }
        let wrongPassword = try ClientCertificate(
            certificateFile: file("client.pem"), keyFile: file("clientEncrypted.key"), password: "wrong secret")
        XCTAssertFalse("\(wrongPassword)".contains("wrong secret"))
        var dumped = ""
        dump(wrongPassword, to: &dumped)
        XCTAssertFalse(dumped.contains("wrong secret"), dumped)
        assertUnusable(.wrongPassword, mentioning: "password") {
            _ = try self.fetch { $0.clientCertificate = wrongPassword }
        }
        assertUnusable(.wrongPassword, mentioning: "password") {
            _ = try self.fetch { $0.clientCertificatesByHost = ["example.com": wrongPassword] }
        }
        // An unencrypted key is compared with the certificate at once, for any transport.
        assertUnusable(.keyMismatch, mentioning: "does not match the certificate in \(file("client.pem").path)") {
            _ = try ClientCertificate(certificateFile: self.file("client.pem"), keyFile: self.file("otherClient.key"))
        }
    }

    func testThatEveryCommonKeyFormatIsComparedWithItsCertificate() throws {
        try TLSFixture.run(
            "/bin/sh", "-c",
            """
            set -e
            cd '\(directory.path)'
            rsa() { openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" 2>/dev/null; }
            rsa rsa.key
            rsa rsa2.key
            openssl rsa -in rsa.key -traditional -out rsa1.key 2>/dev/null
            openssl ecparam -name prime256v1 -genkey -noout -out ec.key 2>/dev/null
            openssl genpkey -algorithm ED25519 -out ed.key 2>/dev/null
            for key in rsa ec ed; do
                openssl req -x509 -new -key "$key.key" -out "$key.pem" -days 2 -subj "/CN=$key" 2>/dev/null
            done
            """)
        func pair(_ certificate: String, _ key: String) throws -> ClientCertificate {
            try ClientCertificate(certificateFile: file("\(certificate).pem"), keyFile: file("\(key).key"))
        }
        XCTAssertTrue(try String(contentsOf: file("rsa1.key"), encoding: .utf8).contains("BEGIN RSA PRIVATE KEY"))
        XCTAssertTrue(try String(contentsOf: file("ec.key"), encoding: .utf8).contains("BEGIN EC PRIVATE KEY"))
        // PKCS #8 and PKCS #1 RSA, SEC1 EC, and Ed25519 (whose PKCS #8 key carries no public key:
        // libcurl is the judge), each with its certificate: libcurl takes them too.
        for (certificate, key) in [("rsa", "rsa"), ("rsa", "rsa1"), ("ec", "ec"), ("ed", "ed")] {
            var configuration = CurlTransport.Configuration()
            configuration.clientCertificate = try pair(certificate, key)
            XCTAssertNoThrow(try CurlTransport(configuration: configuration), key)
        }
        for (certificate, key) in [("rsa", "rsa2"), ("rsa", "ec"), ("ec", "client"), ("ec", "rsa1")] {
            assertUnusable(.keyMismatch, mentioning: "\(certificate).pem") { _ = try pair(certificate, key) }
        }
    }

    func testThatURLSessionOnLinuxRefusesAClientCertificate() throws {
        let client = try client
        assertUnusable(.unsupportedByTransport, mentioning: "CurlTransport") {
            _ = try URLSessionTransport(clientCertificate: client)
        }
    }
}
#endif
