#if os(Linux)
import EndpointKitTestServer
import Foundation
import XCTest

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stored cookies each transport sends on Linux: FoundationNetworking's storage matches the
/// host only; both transports also apply `Secure`, the path and the expiry date (RFC 6265 §5.4),
/// on every hop of a redirect.
final class StoredCookieTests: LoopbackTestCase {
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

    /// The header fields the echo at the end of a plain `http` request to `path` saw.
    /// - Parameter own: The request's own `Cookie` header, if it has one.
    private func echoedHeaders(
        of path: String, own: String? = nil, on transport: any Transport
    ) throws
        -> [String: String]
    {
        let done = expectation(description: path)
        let result = Locked<Result<TransportResponse, TransportError>?>(nil)
        var request = URLRequest(url: server.url(path))
        request.setValue(own, forHTTPHeaderField: "Cookie")
        _ = transport.execute(
            TransportRequest(urlRequest: request, timeouts: Timeouts(total: 10), maximumResponseSize: 1 << 20)
        ) { outcome in
            result.withLock { $0 = outcome }
            done.fulfill()
        }
        wait(for: [done], timeout: 15)
        let data = try XCTUnwrap(result.withLock { $0 }).get().data
        return try JSONDecoder().decode(Echo.self, from: data).headers
    }

    /// The names of the cookies a plain `http` request to `path` carries (to the echo it ends at).
    /// - Parameter own: The request's own `Cookie` header, if it has one.
    private func sentCookies(to path: String, own: String? = nil, on transport: any Transport) throws -> Set<String> {
        let header = try echoedHeaders(of: path, own: own, on: transport)["cookie"] ?? ""
        let pairs = header.split(separator: ";").map { $0.drop { $0 == " " } }
        return Set(pairs.compactMap { $0.split(separator: "=").first.map(String.init) })
    }

    /// Removes the test's cookies from the shared storage.
    private func deleteCookies(prefixed prefix: String) {
        let storage = HTTPCookieStorage.shared
        for stored in storage.cookies ?? [] where stored.name.hasPrefix(prefix) { storage.deleteCookie(stored) }
    }

    func testThatAPlainRequestSendsOnlyTheCookiesItsSchemePathAndTimeAllow() throws {
        server.route("/account/settings") { .echo($0) }
        server.route("/accounts") { .echo($0) }
        server.route("/other") { .echo($0) }
        let tag = "ek\(UUID().uuidString.prefix(6))"
        let names = ["plain", "secure", "account", "accountDir", "expired"].map { "\(tag)\($0)" }
        let storage = HTTPCookieStorage.shared
        storage.setCookie(try cookie(names[0]))
        storage.setCookie(try cookie(names[1], secure: true))
        storage.setCookie(try cookie(names[2], path: "/account"))
        storage.setCookie(try cookie(names[3], path: "/account/"))
        storage.setCookie(try cookie(names[4], expires: Date(timeIntervalSinceNow: 1)))
        defer { deleteCookies(prefixed: tag) }
        // Past the last cookie's expiry (the storage drops expired cookies only when one is set).
        Thread.sleep(forTimeInterval: 1.5)
        for kind in TransportKind.selected {
            let transport = try kind.make()
            func sent(_ path: String) throws -> Set<String> {
                try sentCookies(to: path, on: transport).filter { $0.hasPrefix(tag) }
            }
            XCTAssertEqual(try sent("/account/settings"), [names[0], names[2], names[3]], kind.name)
            XCTAssertEqual(
                try sent("/accounts"), [names[0]], "\(kind.name): /account is not a prefix of /accounts at a /")
            XCTAssertEqual(try sent("/other"), [names[0]], kind.name)
        }
    }

    /// A login's redirect sets the session cookie; the next hop, under another path, carries it
    /// and not the cookie of the first hop's path.
    func testThatEachHopOfARedirectCarriesTheCookiesOfItsOwnPath() throws {
        for kind in TransportKind.selected {
            let tag = "ek\(UUID().uuidString.prefix(6))"
            defer { deleteCookies(prefixed: tag) }
            server.route("/login/\(tag)") { _ in
                .response(
                    status: 302,
                    headers: [("Location", "/home/\(tag)"), ("Set-Cookie", "\(tag)session=1; Path=/")],
                    body: Data())
            }
            server.route("/home/\(tag)") { .echo($0) }
            HTTPCookieStorage.shared.setCookie(try cookie("\(tag)login", path: "/login"))
            let sent = try sentCookies(to: "/login/\(tag)", on: try kind.make())
            XCTAssertEqual(sent.filter { $0.hasPrefix(tag) }, ["\(tag)session"], kind.name)
        }
    }

    /// A redirect to a path no stored cookie covers carries no `Cookie` header, not the one of
    /// the hop before.
    func testThatARedirectDropsTheCookiesOfThePreviousHop() throws {
        for kind in TransportKind.selected {
            let tag = "ek\(UUID().uuidString.prefix(6))"
            defer { deleteCookies(prefixed: tag) }
            server.route("/area/\(tag)") { _ in .redirect(to: "/outside/\(tag)") }
            server.route("/outside/\(tag)") { .echo($0) }
            HTTPCookieStorage.shared.setCookie(try cookie("\(tag)area", path: "/area"))
            let sent = try sentCookies(to: "/area/\(tag)", on: try kind.make())
            XCTAssertEqual(sent.filter { $0.hasPrefix(tag) }, [], kind.name)
        }
    }

    /// A request with its own `Cookie` header sends that header only, also after a redirect.
    func testThatARequestWithItsOwnCookieHeaderGetsNoStoredCookie() throws {
        let tag = "ek\(UUID().uuidString.prefix(6))"
        defer { deleteCookies(prefixed: tag) }
        server.route("/mine/\(tag)") { _ in .redirect(to: "/echo") }
        HTTPCookieStorage.shared.setCookie(try cookie("\(tag)stored"))
        for kind in TransportKind.selected {
            let transport = try kind.make()
            XCTAssertEqual(try sentCookies(to: "/echo", own: "\(tag)mine=1", on: transport), ["\(tag)mine"], kind.name)
            XCTAssertEqual(
                try sentCookies(to: "/mine/\(tag)", own: "\(tag)mine=1", on: transport), ["\(tag)mine"], kind.name)
            XCTAssertEqual(try sentCookies(to: "/echo", on: transport).filter { $0.hasPrefix(tag) }, ["\(tag)stored"])
        }
    }

    /// A stored cookie whose value holds CR and LF (the storage takes any `HTTPCookie`) is not
    /// sent, so it cannot add a header line; the other cookies still are.
    func testThatAStoredCookieThatWouldSplitTheRequestIsNotSent() throws {
        let tag = "ek\(UUID().uuidString.prefix(6))"
        defer { deleteCookies(prefixed: tag) }
        let storage = HTTPCookieStorage.shared
        storage.setCookie(try cookie("\(tag)fine"))
        storage.setCookie(
            try XCTUnwrap(
                HTTPCookie(properties: [
                    .name: "\(tag)split", .value: "1\r\nX-Injected: yes", .domain: "127.0.0.1", .path: "/",
                ])))
        for kind in TransportKind.selected {
            let transport = try kind.make()
            XCTAssertEqual(
                try sentCookies(to: "/echo", on: transport).filter { $0.hasPrefix(tag) }, ["\(tag)fine"], kind.name)
            let headers = try echoedHeaders(of: "/echo", on: transport)
            XCTAssertNil(headers["x-injected"], kind.name)
        }
    }

    func testThatAPathMatchesItsCookiePathOnlyAtASlash() {
        XCTAssertTrue(StoredCookies.pathMatches("/", "/"))
        XCTAssertTrue(StoredCookies.pathMatches("/a/b", "/"))
        XCTAssertTrue(StoredCookies.pathMatches("/a", "/a"))
        XCTAssertTrue(StoredCookies.pathMatches("/a/b", "/a"))
        XCTAssertTrue(StoredCookies.pathMatches("/a/b", "/a/"))
        XCTAssertTrue(StoredCookies.pathMatches("/a/b", ""))
        XCTAssertFalse(StoredCookies.pathMatches("/ab", "/a"))
        XCTAssertFalse(StoredCookies.pathMatches("/a", "/a/"))
        XCTAssertFalse(StoredCookies.pathMatches("/", "/a"))
    }
}
#endif
