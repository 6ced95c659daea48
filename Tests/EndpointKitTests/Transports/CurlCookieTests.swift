#if os(Linux)
import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stored cookies ``CurlTransport`` sends: FoundationNetworking's storage matches the host
/// only; the transport also applies `Secure`, the path and the expiry date (RFC 6265 §5.4).
final class CurlCookieTests: LoopbackTestCase {
    private func cookie(
        _ name: String, path: String = "/", secure: Bool = false, expires: Date? = nil
    ) throws
        -> HTTPCookie
    {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: name, .value: "1", .domain: "127.0.0.1", .path: path,
        ]
        if secure { properties[.secure] = "TRUE" }
        if let expires { properties[.expires] = expires }
        return try XCTUnwrap(HTTPCookie(properties: properties))
    }

    /// The names of the cookies a plain `http` request to `path` carries.
    private func sentCookies(to path: String, on transport: CurlTransport) throws -> Set<String> {
        let done = expectation(description: path)
        let result = Locked<Result<TransportResponse, TransportError>?>(nil)
        _ = transport.execute(
            TransportRequest(
                urlRequest: URLRequest(url: server.url(path)), timeouts: Timeouts(total: 10),
                maximumResponseSize: 1 << 20)
        ) { outcome in
            result.withLock { $0 = outcome }
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        let data = try XCTUnwrap(result.withLock { $0 }).get().data
        let header = try JSONDecoder().decode(Echo.self, from: data).headers["cookie"] ?? ""
        let pairs = header.split(separator: ";").map { $0.drop { $0 == " " } }
        return Set(pairs.compactMap { $0.split(separator: "=").first.map(String.init) })
    }

    func testThatAPlainRequestSendsOnlyTheCookiesItsSchemePathAndTimeAllow() throws {
        server.route("/account/settings") { .echo($0) }
        server.route("/accounts") { .echo($0) }
        server.route("/other") { .echo($0) }
        let tag = UUID().uuidString.prefix(6)
        let names = ["plain", "secure", "account", "accountDir", "expired"].map { "ek\(tag)\($0)" }
        let storage = HTTPCookieStorage.shared
        storage.setCookie(try cookie(names[0]))
        storage.setCookie(try cookie(names[1], secure: true))
        storage.setCookie(try cookie(names[2], path: "/account"))
        storage.setCookie(try cookie(names[3], path: "/account/"))
        storage.setCookie(try cookie(names[4], expires: Date(timeIntervalSinceNow: 1)))
        defer {
            for stored in storage.cookies ?? [] where names.contains(stored.name) { storage.deleteCookie(stored) }
        }
        // Past the last cookie's expiry (the storage drops expired cookies only when one is set).
        Thread.sleep(forTimeInterval: 1.5)
        let transport = try CurlTransport()
        func sent(_ path: String) throws -> Set<String> {
            try sentCookies(to: path, on: transport).filter { $0.hasPrefix("ek\(tag)") }
        }
        XCTAssertEqual(try sent("/account/settings"), [names[0], names[2], names[3]])
        XCTAssertEqual(try sent("/accounts"), [names[0]], "/account is not a prefix of /accounts at a /")
        XCTAssertEqual(try sent("/other"), [names[0]])
    }

    func testThatAPathMatchesItsCookiePathOnlyAtASlash() {
        XCTAssertTrue(CurlCookies.pathMatches("/", "/"))
        XCTAssertTrue(CurlCookies.pathMatches("/a/b", "/"))
        XCTAssertTrue(CurlCookies.pathMatches("/a", "/a"))
        XCTAssertTrue(CurlCookies.pathMatches("/a/b", "/a"))
        XCTAssertTrue(CurlCookies.pathMatches("/a/b", "/a/"))
        XCTAssertTrue(CurlCookies.pathMatches("/a/b", ""))
        XCTAssertFalse(CurlCookies.pathMatches("/ab", "/a"))
        XCTAssertFalse(CurlCookies.pathMatches("/a", "/a/"))
        XCTAssertFalse(CurlCookies.pathMatches("/", "/a"))
    }
}
#endif
