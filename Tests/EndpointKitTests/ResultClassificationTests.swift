import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One test per row of Docs/ResultClassification.md, over real HTTP on loopback.
final class ResultClassificationTests: LoopbackTestCase {
    func testThatA2xxWithADecodableBodyIsSuccess() throws {
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
        let result = try XCTUnwrap(sendAndWait(GetItem()))
        XCTAssertEqual(result.value, Item(id: 1, name: "a"))
        XCTAssertEqual(result.metadata?.statusCode, 200)
        XCTAssertEqual(result.metadata?.header("content-type"), "application/json")
        XCTAssertEqual(result.metadata.map { String(decoding: $0.data, as: UTF8.self) }, #"{"id":1,"name":"a"}"#)
    }

    func testThatAnEnvelopeBusinessFailureIsAServerFailureWithCodeAndMessage() throws {
        server.route("/items") { _ in .json(string: #"{"Error":{"ID":42,"Message":"Session expired"},"Result":null}"#) }
        let result = try XCTUnwrap(sendAndWait(GetItems(envelope: .errorIDResult())))
        let failure = try XCTUnwrap(result.serverFailure)
        XCTAssertEqual(failure.kind, .businessStatus)
        XCTAssertEqual(failure.statusCode, 200)
        XCTAssertEqual(failure.code, 42)
        XCTAssertEqual(failure.message, "Session expired")
        XCTAssertEqual(failure.metadata.envelope?.isSuccess, false)
    }

    func testThatAnHTTPErrorIsAServerFailureWithItsBodyAndTypedPayload() throws {
        struct Problem: Decodable, Equatable {
            let error: String
            let retryable: Bool
        }
        server.route("/item") { _ in .json(["error": "quota", "retryable": true, "message": "Too many"], status: 429) }
        let failure = try XCTUnwrap(sendAndWait(GetItem())?.serverFailure)
        XCTAssertEqual(failure.kind, .httpStatus)
        XCTAssertEqual(failure.statusCode, 429)
        XCTAssertEqual(failure.message, "Too many")
        XCTAssertEqual(try failure.decodeBody(as: Problem.self), Problem(error: "quota", retryable: true))
    }

    func testThatAnHTML502IsAServerFailureKeepingTheBody() throws {
        server.route("/item") { _ in .text("<html>Bad gateway</html>", status: 502, contentType: "text/html") }
        let failure = try XCTUnwrap(sendAndWait(GetItem())?.serverFailure)
        XCTAssertEqual(failure.statusCode, 502)
        XCTAssertNil(failure.message)
        XCTAssertEqual(failure.bodyText, "<html>Bad gateway</html>")
    }

    func testThatABasic401ChallengeIsAServerFailureAndDoesNotHang() throws {
        server.route("/item") { _ in
            .response(
                status: 401, headers: [("WWW-Authenticate", #"Basic realm="api""#)],
                body: Data(#"{"message":"login"}"#.utf8))
        }
        let failure = try XCTUnwrap(sendAndWait(GetItem(totalTimeout: 5))?.serverFailure)
        XCTAssertEqual(failure.statusCode, 401)
        XCTAssertEqual(failure.message, "login")
    }

    func testThatAnUndecodableBodyIsADecodingFailureWithTheResponse() throws {
        server.route("/item") { _ in .json(["id": "not a number", "name": "a"]) }
        let result = try XCTUnwrap(sendAndWait(GetItem()))
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .decodingFailed)
        XCTAssertTrue(error.message.contains("id"), error.message)
        XCTAssertEqual(error.metadata?.statusCode, 200)
        XCTAssertTrue(error.underlyingError is DecodingError)
    }

    func testThatAnUnacceptableContentTypeIsATransportError() throws {
        server.route("/item") { _ in .text(#"{"id":1,"name":"a"}"#, contentType: "image/png") }
        let result = try XCTUnwrap(sendAndWait(GetItem(validation: .json)))
        XCTAssertEqual(result.transportReason, .unacceptableContentType("image/png"))
    }

    func testThatABodyOverTheSizeCapIsResponseTooLarge() throws {
        let small = makeClient { $0.maximumResponseSize = 1000 }
        server.route("/item") { _ in .response(status: 200, headers: [], body: Data(count: 5000)) }
        XCTAssertEqual(sendAndWait(GetItem(), client: small)?.transportReason, .responseTooLarge(limit: 1000))
        server.route("/item") { _ in
            .chunked(
                status: 200, headers: [], chunks: Array(repeating: Data(count: 400), count: 5), delayBetweenChunks: 0)
        }
        XCTAssertEqual(sendAndWait(GetItem(), client: small)?.transportReason, .responseTooLarge(limit: 1000))
    }

    func testThatAServerThatNeverAnswersTimesOutAtTheDeadline() throws {
        server.route("/item") { _ in .stall }
        let started = Date()
        XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.5))?.transportReason, .timedOut)
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "the 0.5 s deadline, not the 10 s client timeout")
    }

    func testThatAStallAfterHeadersTimesOut() throws {
        server.route("/item") { _ in .stallAfterHeaders(status: 200, headers: [], contentLength: 100) }
        XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.5))?.transportReason, .timedOut)
    }

    func testThatASlowButActiveBodyStillEndsAtTheTotalDeadline() throws {
        // Data keeps arriving, so URLSession's idle timeout never fires; the total deadline must.
        server.route("/item") { _ in
            .chunked(
                status: 200, headers: [], chunks: Array(repeating: Data("x".utf8), count: 50), delayBetweenChunks: 0.1)
        }
        XCTAssertEqual(sendAndWait(GetItem(totalTimeout: 0.8))?.transportReason, .timedOut)
    }

    func testThatARefusedConnectionIsCannotConnect() throws {
        let port = server.port
        server.stop()
        let client = makeClient { $0.baseURL = URL(string: "http://127.0.0.1:\(port)") }
        XCTAssertEqual(sendAndWait(GetItem(), client: client)?.transportReason, .cannotConnect)
    }

    func testThatAConnectionClosedMidBodyIsConnectionLost() throws {
        server.route("/item") { _ in
            .closeMidBody(status: 200, headers: [], declaredLength: 1000, body: Data(count: 10))
        }
        let result = sendAndWait(GetItem())
        let reason = result?.transportReason
        XCTAssertTrue(reason == .connectionLost || reason == .badResponse, "\(String(describing: result))")
    }

    func testThatGarbageInsteadOfHTTPIsABadResponse() throws {
        server.route("/item") { _ in .raw(Data("SSH-2.0-OpenSSH\r\n\r\n".utf8), closeAfter: true) }
        let reason = sendAndWait(GetItem())?.transportReason
        XCTAssertTrue(reason == .badResponse || reason == .connectionLost, "\(String(describing: reason))")
    }

    func testThatTLSToAPlainHTTPServerIsATLSError() throws {
        let client = makeClient { $0.baseURL = URL(string: "https://127.0.0.1:\(self.server.port)") }
        XCTAssertEqual(sendAndWait(GetItem(), client: client)?.transportReason, .tls)
    }

    func testThatEndlessRedirectsAreTooManyRedirects() throws {
        server.route("/item") { _ in .response(status: 302, headers: [("Location", "/item")], body: Data()) }
        XCTAssertEqual(sendAndWait(GetItem())?.transportReason, .tooManyRedirects)
    }

    func testThatAnUnsupportedSchemeIsUnsupportedURL() throws {
        let client = makeClient { $0.baseURL = URL(string: "ftp://127.0.0.1:\(self.server.port)") }
        XCTAssertEqual(sendAndWait(GetItem(), client: client)?.transportReason, .unsupportedURL)
    }

    /// A scheme other than http and https is refused by the transport whether or not the URL has a
    /// host (`file:///tmp` has none): the same reason as `ftp://host`, not a build failure.
    func testThatAnUnsupportedSchemeWithoutAHostIsUnsupportedURLOnEveryTransport() throws {
        var transports: [any Transport] = [URLSessionTransport()]
        #if os(Linux)
        transports.append(try CurlTransport())
        #endif
        for transport in transports {
            for base in ["file:///tmp", "file:///", "data:text/plain,x"] {
                let client = makeClient {
                    $0.baseURL = URL(string: base)
                    $0.transport = transport
                }
                XCTAssertEqual(
                    sendAndWait(GetItem(), client: client)?.transportReason, .unsupportedURL, "\(base) on \(transport)")
            }
        }
        XCTAssertEqual(server.requestCount, 0)
    }

    func testThatARequestThatCannotBeBuiltIsRequestBuildFailed() throws {
        let result = try XCTUnwrap(sendAndWait(EchoRequest(headers: ["X-Evil": "a\r\nHost: evil"])))
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .requestBuildFailed)
        XCTAssertEqual(error.underlyingError as? RequestBuildError, .controlCharacter(component: "header X-Evil"))
        XCTAssertEqual(server.requestCount, 0)
    }

    func testThatEveryURLErrorCodeMapsToItsReason() {
        let rows: [(URLError.Code, TransportError.Reason)] = [
            (.timedOut, .timedOut), (.notConnectedToInternet, .notConnected), (.dataNotAllowed, .notConnected),
            (.internationalRoamingOff, .notConnected), (.cannotConnectToHost, .cannotConnect),
            (.cannotFindHost, .cannotFindHost), (.dnsLookupFailed, .cannotFindHost),
            (.networkConnectionLost, .connectionLost), (.cancelled, .cancelled), (.secureConnectionFailed, .tls),
            (.serverCertificateUntrusted, .tls), (.serverCertificateHasBadDate, .tls),
            (.serverCertificateHasUnknownRoot, .tls), (.serverCertificateNotYetValid, .tls),
            (.clientCertificateRejected, .tls), (.clientCertificateRequired, .tls),
            (.httpTooManyRedirects, .tooManyRedirects), (.redirectToNonExistentLocation, .tooManyRedirects),
            (.badServerResponse, .badResponse), (.cannotParseResponse, .badResponse), (.zeroByteResource, .badResponse),
            (.cannotDecodeContentData, .badResponse), (.unsupportedURL, .unsupportedURL), (.badURL, .unsupportedURL),
            (.resourceUnavailable, .other),
        ]
        for (code, reason) in rows {
            XCTAssertEqual(TransportError(urlSessionError: URLError(code), url: nil).reason, reason, "\(code)")
        }
        let https = URL(string: "https://example.test")
        let linuxTLS = NSError(
            domain: NSURLErrorDomain, code: -1,
            userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate"])
        XCTAssertEqual(TransportError(urlSessionError: linuxTLS, url: https).reason, .tls)
        XCTAssertEqual(
            TransportError(urlSessionError: linuxTLS, url: URL(string: "http://example.test")).reason, .other)
    }

    func testThatLibcurlGivingUpOnAConnectionThatKeepsClosingIsConnectionLost() {
        // URLSession on Linux, when the server closes every connection without answering (seen in the soak).
        let died = NSError(
            domain: NSURLErrorDomain, code: -1,
            userInfo: [NSLocalizedDescriptionKey: "Connection died, tried 5 times before giving up"])
        let http = URL(string: "http://example.test")
        XCTAssertEqual(TransportError(urlSessionError: died, url: http).reason, .connectionLost)
    }
}
