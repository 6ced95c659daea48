import EndpointKit
import Foundation
import XCTest

/// Certificates, pins and policies are checked when they are created, without any network.
final class ServerTrustPolicyTests: XCTestCase {
    /// A self-signed P-256 certificate (CN=pin.test) made with openssl.
    private static let pem = """
        -----BEGIN CERTIFICATE-----
        MIIBezCCASGgAwIBAgIULokYPCKV5zDE/bo/ryC4QuXz0KEwCgYIKoZIzj0EAwIw
        EzERMA8GA1UEAwwIcGluLnRlc3QwHhcNMjYxMTI5MjExMzM2WhcNMzYxMTI2MjEx
        MzM2WjATMREwDwYDVQQDDAhwaW4udGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEH
        A0IABAjtgH7J7qpg8hIaoqf/hkJbAbBbDfSZ/bVHPLuZpNFD0DHeHEaa9cPzr48R
        qrFGqSwjk/Nh0W7DGCM/+Hg6OaajUzBRMB0GA1UdDgQWBBQcKMK9MXr+nFEWUFGa
        w8UAJaZZxTAfBgNVHSMEGDAWgBQcKMK9MXr+nFEWUFGaw8UAJaZZxTAPBgNVHRMB
        Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDVIYgsJju8oKPOHVN6UNFhtiFc
        MDKLyvOANvIMh6ZkkQIgJ2w35ss57YROaoJjD8JVC41hiIcOxrkILA6ArSW1Jkk=
        -----END CERTIFICATE-----
        """
    /// Its SPKI SHA-256 pin, from `openssl ... | openssl dgst -sha256 -binary | base64`.
    private static let pin = "sha256//nrnzXdG9LLDASfey3gEkrfxnu4+PN24rH1a4Xw4O/OQ="

    func testThatPEMAndDERCertificatesParseToTheSameCertificate() throws {
        let fromPEM = try TLSCertificate(pemEncoded: Self.pem)
        let fromDER = try TLSCertificate(derEncoded: fromPEM.derData)
        XCTAssertEqual(fromPEM, fromDER)
        XCTAssertEqual(try TLSCertificate(data: Data(Self.pem.utf8)), fromPEM)
        XCTAssertEqual(try TLSCertificate(data: fromDER.derData), fromPEM)
        XCTAssertEqual(try TLSCertificate(pemEncoded: fromPEM.pemEncoded), fromPEM)
        XCTAssertEqual(try TLSCertificate.certificates(pemEncoded: Self.pem + "\n" + Self.pem).count, 2)
    }

    func testThatMalformedCertificatesThrowAtCreation() throws {
        let der = try TLSCertificate(pemEncoded: Self.pem).derData
        let malformed: [(String, () throws -> TLSCertificate)] = [
            ("garbage DER", { try TLSCertificate(derEncoded: Data("not a certificate".utf8)) }),
            ("truncated DER", { try TLSCertificate(derEncoded: der.prefix(der.count - 1)) }),
            ("trailing bytes", { try TLSCertificate(derEncoded: der + Data([0])) }),
            ("empty", { try TLSCertificate(data: Data()) }),
            ("no END line", { try TLSCertificate(pemEncoded: "-----BEGIN CERTIFICATE-----\nMIIB\n") }),
            (
                "bad base64",
                { try TLSCertificate(pemEncoded: "-----BEGIN CERTIFICATE-----\n@@@\n-----END CERTIFICATE-----") }
            ),
            (
                "base64 of not a certificate",
                {
                    try TLSCertificate(pemEncoded: "-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----")
                }
            ),
            ("two certificates", { try TLSCertificate(pemEncoded: Self.pem + Self.pem) }),
            ("missing file", { try TLSCertificate(contentsOf: URL(fileURLWithPath: "/nonexistent/ca.cer")) }),
        ]
        for (name, make) in malformed {
            XCTAssertThrowsError(try make(), name) { error in
                guard case .malformedCertificate = error as? TransportConfigurationError else {
                    return XCTFail("\(name): \(error)")
                }
            }
        }
    }

    func testThatPinsParseWithOrWithoutPrefixAndMalformedOnesThrow() throws {
        let certificate = try TLSCertificate(pemEncoded: Self.pem)
        XCTAssertEqual(PublicKeyPin(publicKeyOf: certificate).description, Self.pin)
        XCTAssertEqual(try PublicKeyPin(Self.pin), PublicKeyPin(publicKeyOf: certificate))
        XCTAssertEqual(try PublicKeyPin(String(Self.pin.dropFirst("sha256//".count))), try PublicKeyPin(Self.pin))
        for bad in ["", "sha256//", "sha256//not base64!", "sha256//aGVsbG8=", "md5//" + Self.pin.dropFirst(8)] {
            XCTAssertThrowsError(try PublicKeyPin(bad), bad) { error in
                guard case .malformedPublicKeyPin = error as? TransportConfigurationError else {
                    return XCTFail("\(bad): \(error)")
                }
            }
        }
        XCTAssertThrowsError(try ServerTrustPolicy.pinnedPublicKeys(["sha256//short"]))
    }

    func testThatEmptyPoliciesThrowAndHostVerificationIsOnByDefault() throws {
        XCTAssertThrowsError(try ServerTrustPolicy.customRoots([]))
        XCTAssertThrowsError(try ServerTrustPolicy.pinnedCertificates([]))
        XCTAssertThrowsError(try ServerTrustPolicy.pinnedPublicKeys([PublicKeyPin]()))
        XCTAssertThrowsError(
            try ServerTrustPolicy.pinnedPublicKeys([Self.pin], roots: []), "an empty root list is a mistake, not system"
        )
        let certificate = try TLSCertificate(pemEncoded: Self.pem)
        for policy in [
            ServerTrustPolicy.system, try .customRoots([certificate]), try .pinnedCertificates([certificate]),
            try .pinnedPublicKeys([Self.pin]),
        ] {
            XCTAssertTrue(policy.validatesHostName)
        }
    }
}
