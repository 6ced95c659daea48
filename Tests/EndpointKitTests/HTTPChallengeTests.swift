import Foundation
import XCTest

@testable import EndpointKit

/// `WWW-Authenticate` parsing and the Basic and Digest answers, against the RFCs' own examples
/// (RFC 2617 §3.5, RFC 7616 §3.9.1, RFC 7617, RFC 9110 §11.6.1).
final class HTTPChallengeTests: XCTestCase {
    func testThatChallengesAreParsedAsRFC9110Writes() {
        let challenges = HTTPChallenge.parse(
            #"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#)
        XCTAssertEqual(
            challenges,
            [
                HTTPChallenge(
                    scheme: "Newauth", parameters: ["realm": "apps", "type": "1", "title": #"Login to "apps""#]),
                HTTPChallenge(scheme: "Basic", parameters: ["realm": "simple"]),
            ])
        // A token68, repeated fields joined with ", ", odd spacing and case.
        XCTAssertEqual(
            HTTPChallenge.parse(#"Negotiate abc/d+e==, DIGEST  REALM = "r" ,nonce=n,, basic"#),
            [
                HTTPChallenge(scheme: "Negotiate"),
                HTTPChallenge(scheme: "DIGEST", parameters: ["realm": "r", "nonce": "n"]),
                HTTPChallenge(scheme: "basic"),
            ])
        XCTAssertEqual(HTTPChallenge.parse(""), [])
        XCTAssertEqual(
            HTTPChallenge.parse(#"Basic realm="unterminated"#),
            [HTTPChallenge(scheme: "Basic", parameters: ["realm": "unterminated"])])
    }

    /// RFC 7616 §3.9.1: Mufasa's answers, MD5 and SHA-256.
    func testThatDigestAnswersMatchRFC7616sExample() throws {
        let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
        let opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
        let credential = HTTPCredential(user: "Mufasa", password: "Circle of Life")
        for (algorithm, expected) in [
            ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
            ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        ] {
            let field =
                #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\#(algorithm), "#
                + #"nonce="\#(nonce)", opaque="\#(opaque)""#
            let answer = try XCTUnwrap(
                HTTPChallenge.authorization(
                    answering: HTTPChallenge.parse(field), with: credential, method: "GET", target: "/dir/index.html",
                    clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"))
            let sent = try XCTUnwrap(HTTPChallenge.parse(answer).first)
            XCTAssertEqual(sent.scheme, "Digest")
            XCTAssertEqual(sent.parameters["response"], expected, algorithm)
            XCTAssertEqual(sent.parameters["username"], "Mufasa")
            XCTAssertEqual(sent.parameters["uri"], "/dir/index.html")
            XCTAssertEqual(sent.parameters["qop"], "auth")
            XCTAssertEqual(sent.parameters["nc"], "00000001")
            XCTAssertEqual(sent.parameters["opaque"], opaque)
            XCTAssertEqual(sent.parameters["algorithm"], algorithm)
        }
    }

    /// RFC 2617 §3.5 (qop=auth), and RFC 2069's form without qop.
    func testThatDigestWithoutAlgorithmIsMD5AndWithoutQopIsRFC2069() throws {
        let credential = HTTPCredential(user: "Mufasa", password: "Circle Of Life")
        let base = #"Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093""#
        for (field, expected) in [
            (base + #", qop="auth,auth-int""#, "6629fae49393a05397450978507c4ef1"),
            (base, "670fd8c2df070c60b045671b8b24ff02"),
        ] {
            let answer = try XCTUnwrap(
                HTTPChallenge.authorization(
                    answering: HTTPChallenge.parse(field), with: credential, method: "GET", target: "/dir/index.html",
                    clientNonce: "0a4f113b"))
            let sent = try XCTUnwrap(HTTPChallenge.parse(answer).first)
            XCTAssertEqual(sent.parameters["response"], expected)
            XCTAssertNil(sent.parameters["algorithm"], "absent stays absent")
        }
    }

    func testThatTheStrongestChallengeIsAnswered() throws {
        let credential = HTTPCredential(user: "u", password: "p")
        func scheme(_ field: String) -> (String, String?)? {
            guard
                let answer = HTTPChallenge.authorization(
                    answering: HTTPChallenge.parse(field), with: credential, method: "GET", target: "/")
            else { return nil }
            let sent = HTTPChallenge.parse(answer).first
            return (sent?.scheme ?? "", sent?.parameters["algorithm"])
        }
        let md5 = #"Digest realm="r", nonce="n", qop="auth", algorithm=MD5"#
        let sha = #"Digest realm="r", nonce="n", qop="auth", algorithm=SHA-256"#
        XCTAssertEqual(scheme(#"Basic realm="r", "# + md5 + ", " + sha)?.1, "SHA-256")
        XCTAssertEqual(scheme(md5 + #", Basic realm="r""#)?.1, "MD5")
        XCTAssertEqual(scheme(#"Basic realm="r""#)?.0, "Basic")
        XCTAssertEqual(
            scheme(#"Digest realm="r", nonce="n", algorithm=MD5-sess, qop=auth, "# + md5)?.1, "MD5",
            "plain before -sess")
        XCTAssertEqual(scheme(#"Digest realm="r", nonce="n", algorithm=SHA-256-sess, qop=auth"#)?.1, "SHA-256-sess")
        // Not answered: another scheme, another algorithm, auth-int only, no nonce.
        XCTAssertNil(scheme(#"Bearer realm="r""#))
        XCTAssertNil(scheme(#"Digest realm="r", nonce="n", algorithm=SHA-512-256"#))
        XCTAssertNil(scheme(#"Digest realm="r", nonce="n", qop="auth-int""#))
        XCTAssertNil(scheme(#"Digest realm="r""#))
        XCTAssertEqual(scheme(#"Digest realm="r", nonce="n", qop="auth-int", Basic realm="r""#)?.0, "Basic")
    }

    func testThatSessionDigestAndUserHashFollowRFC7616() throws {
        let credential = HTTPCredential(user: "Mufasa", password: "Circle of Life")
        let field = #"Digest realm="r", nonce="n", qop=auth, algorithm=SHA-256-sess, userhash=true"#
        let answer = try XCTUnwrap(
            HTTPChallenge.authorization(
                answering: HTTPChallenge.parse(field), with: credential, method: "POST", target: "/a?b=c",
                clientNonce: "c"))
        let sent = try XCTUnwrap(HTTPChallenge.parse(answer).first)
        func sha(_ text: String) -> String { Digest.hex(text) }
        let secret = sha("\(sha("Mufasa:r:Circle of Life")):n:c")
        XCTAssertEqual(sent.parameters["response"], sha("\(secret):n:00000001:c:auth:\(sha("POST:/a?b=c"))"))
        XCTAssertEqual(sent.parameters["username"], sha("Mufasa:r"))
        XCTAssertEqual(sent.parameters["userhash"], "true")
    }

    func testThatBasicIsRFC7617sAndThePasswordIsNeverShown() {
        XCTAssertEqual(
            HTTPHeaders.authorization(username: "Aladdin", password: "open sesame")["authorization"],
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        let credential = HTTPCredential(user: "Aladdin", password: "open sesame")
        XCTAssertEqual(credential.basicAuthorization, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        var dumped = ""
        dump(credential, to: &dumped)
        for shown in [credential.description, String(reflecting: credential), "\(credential)", dumped] {
            XCTAssertTrue(shown.contains("Aladdin"), shown)
            XCTAssertFalse(shown.contains("open sesame"), shown)
        }
        var endpoint = Endpoint<Data>(path: "/x")
        endpoint.credential = credential
        XCTAssertFalse("\(endpoint)".contains("open sesame"))
    }

    func testThatTheRequestTargetIsThePathAndQueryAsSent() {
        XCTAssertEqual(
            ChallengeAnsweringSender.requestTarget(of: URL(string: "http://h:8/a%20b/c?d=e%26f")!), "/a%20b/c?d=e%26f")
        XCTAssertEqual(ChallengeAnsweringSender.requestTarget(of: URL(string: "http://h")!), "/")
        XCTAssertEqual(ChallengeAnsweringSender.requestTarget(of: URL(string: "http://h/?q")!), "/?q")
    }
}
