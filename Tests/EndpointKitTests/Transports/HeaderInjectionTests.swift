import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// CR, LF and NUL in a header can split a request in two. Whatever put them there (an adapter, a
/// credential, a caller of the transport itself), the request fails before a byte is written.
final class HeaderInjectionTests: TransportTestCase {
    /// Values that would inject a second header or cut the head, if they reached the wire.
    static let hostileValues = ["a\r\nX-Injected: 1", "a\nX-Injected: 1", "a\rX-Injected: 1", "a\u{0}X-Injected: 1"]

    func testThatAnAdapterCannotInjectAHeader() throws {
        try forEachTransport {
            for value in Self.hostileValues {
                let client = makeClient {
                    $0.interceptors = [
                        Adapter { request, _ in
                            var request = request
                            // `setValue` drops such a value on Linux; this assignment keeps it.
                            request.allHTTPHeaderFields = ["X-Token": value]
                            return request
                        }
                    ]
                }
                let result = try XCTUnwrap(sendAndWait(EchoRequest(), client: client))
                assertRefused(result, header: "X-Token", value)
            }
            XCTAssertEqual(server.requestCount, 0, "nothing reached the server")
        }
    }

    func testThatACredentialCannotInjectAHeader() throws {
        try forEachTransport {
            for value in Self.hostileValues {
                let authentication = AuthenticationInterceptor<String>(
                    credential: value,
                    apply: { token, request in
                        var fields = request.allHTTPHeaderFields ?? [:]
                        fields["Authorization"] = "Bearer \(token)"
                        request.allHTTPHeaderFields = fields
                    },
                    refresh: { _ in "fresh" })
                let client = makeClient { $0.interceptors = [authentication] }
                let result = try XCTUnwrap(sendAndWait(EchoRequest(), client: client))
                assertRefused(result, header: "Authorization", value)
                XCTAssertEqual(authentication.refreshCount, 0, "a refused request is not a rejected credential")
            }
            XCTAssertEqual(server.requestCount, 0, "nothing reached the server")
        }
    }

    func testThatATransportRefusesAnInjectedHeaderItIsHandedDirectly() throws {
        try forEachTransport {
            for value in Self.hostileValues {
                var urlRequest = URLRequest(url: server.url("/echo"))
                urlRequest.allHTTPHeaderFields = ["X-Token": value]
                let error = try XCTUnwrap(execute(urlRequest)?.failure, value.debugDescription)
                XCTAssertEqual(error.reason, .requestBuildFailed, value.debugDescription)
                XCTAssertEqual(
                    error.underlyingError as? RequestBuildError, .controlCharacter(component: "header X-Token"))
            }
            var badMethod = URLRequest(url: server.url("/echo"))
            badMethod.httpMethod = "GET /admin HTTP/1.1\r\nX-Injected:"
            XCTAssertEqual(try XCTUnwrap(execute(badMethod)?.failure).reason, .requestBuildFailed)
            var badName = URLRequest(url: server.url("/echo"))
            badName.allHTTPHeaderFields = ["X-Token\r\nX-Injected": "1"]
            XCTAssertEqual(try XCTUnwrap(execute(badName)?.failure).reason, .requestBuildFailed)
            XCTAssertEqual(server.requestCount, 0, "nothing reached the server")
            // The same transport still sends a clean request.
            XCTAssertEqual(
                try XCTUnwrap(execute(URLRequest(url: server.url("/echo")))).success?.response.statusCode, 200)
        }
    }

    private func assertRefused<Value>(
        _ result: APIResult<Value>, header: String, _ value: String, line: UInt = #line
    ) {
        guard case .transportError(let error) = result else {
            return XCTFail("\(value.debugDescription) must be refused, got \(result)", line: line)
        }
        XCTAssertEqual(error.reason, .requestBuildFailed, value.debugDescription, line: line)
        XCTAssertEqual(
            error.underlyingError as? RequestBuildError, .controlCharacter(component: "header \(header)"), line: line)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
