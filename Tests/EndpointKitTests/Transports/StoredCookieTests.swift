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
        of path: String, own: String? = nil, on transport: any Transport, decoding: Bool = true
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
        guard decoding else { return [:] }
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

    // MARK: - Limits (issue 44)

    func testThatACookieFloodStoresAtMostTheDomainLimitAndSendsABoundedHeader() throws {
        let tag = "ek\(UUID().uuidString.prefix(6))"
        defer { deleteCookies(prefixed: tag) }
        // About 260 KB of head: 10,000 cookies for the host, under libcurl's 300 KB head limit.
        let lines = (0..<10_000).map { "Set-Cookie: \(tag)\($0)=v" }
        let head = Data((["HTTP/1.1 200 OK"] + lines + ["Content-Length: 2", "", ""]).joined(separator: "\r\n").utf8)
        server.route("/flood") { _ in .raw(head + Data("{}".utf8), closeAfter: false) }
        server.route("/echo") { .echo($0) }
        for kind in TransportKind.selected {
            deleteCookies(prefixed: tag)
            let transport = try kind.make()
            _ = try echoedHeaders(of: "/flood", on: transport, decoding: false)
            let stored = (HTTPCookieStorage.shared.cookies ?? []).filter { $0.name.hasPrefix(tag) }
            XCTAssertEqual(stored.count, StoredCookies.maximumCookiesPerDomain, kind.name)
            XCTAssertTrue(stored.contains { $0.name == "\(tag)9999" }, "the last cookie set is kept (\(kind.name))")
            XCTAssertFalse(stored.contains { $0.name == "\(tag)0" }, "the first one is not (\(kind.name))")
            let header = try echoedHeaders(of: "/echo", on: transport)["cookie"] ?? ""
            XCTAssertGreaterThan(header.utf8.count, 0, kind.name)
            XCTAssertLessThanOrEqual(header.utf8.count, StoredCookies.maximumHeaderSize, kind.name)
        }
    }

    func testThatTheOldestCookiesOfADomainGoFirstAndOversizedOnesAreIgnored() throws {
        let tag = "ek\(UUID().uuidString.prefix(6))"
        defer { deleteCookies(prefixed: tag) }
        let storage = HTTPCookieStorage.shared
        let url = server.url("/")
        storage.setCookie(try cookie("\(tag)app"))  // set by the app: older than any the transport stores
        for index in 0..<60 { StoredCookies.store(["\(tag)\(index)=1; Path=/"], from: url, in: storage) }
        var names = Set((storage.cookies ?? []).map(\.name).filter { $0.hasPrefix(tag) })
        // 61 for the domain: the app's cookie (the oldest) and the first ten the transport stored go.
        XCTAssertEqual(names, Set((10..<60).map { "\(tag)\($0)" }))
        // Setting a kept cookie again makes it the newest.
        StoredCookies.store(["\(tag)11=2; Path=/"], from: url, in: storage)
        StoredCookies.store(["\(tag)60=1; Path=/"], from: url, in: storage)
        names = Set((storage.cookies ?? []).map(\.name).filter { $0.hasPrefix(tag) })
        XCTAssertTrue(names.contains("\(tag)11"), "set again, so newer than 10")
        XCTAssertFalse(names.contains("\(tag)10"), "the oldest when 60 came")
        XCTAssertTrue(names.contains("\(tag)60"))
        let big = String(repeating: "x", count: StoredCookies.maximumCookieSize)
        StoredCookies.store(
            ["\(tag)big=\(big)", "\(tag)fits=\(big.dropFirst(tag.utf8.count + 5))"], from: url, in: storage)
        names = Set((storage.cookies ?? []).map(\.name).filter { $0.hasPrefix(tag) })
        XCTAssertFalse(names.contains("\(tag)big"), "over 4096 bytes")
        XCTAssertTrue(names.contains("\(tag)fits"), "4096 bytes")
    }

    func testThatTheStorageKeepsAtMostItsTotalLimit() throws {
        let tag = "ek\(UUID().uuidString.prefix(6))".lowercased()
        let storage = HTTPCookieStorage.shared
        defer {
            for stored in storage.cookies ?? [] where stored.domain.hasPrefix(tag) { storage.deleteCookie(stored) }
        }
        let domains = StoredCookies.maximumCookies / StoredCookies.maximumCookiesPerDomain + 2
        for domain in 0..<domains {
            let url = try XCTUnwrap(URL(string: "http://\(tag)\(domain).test/"))
            let fields = (0..<StoredCookies.maximumCookiesPerDomain).map { "c\($0)=1; Path=/" }
            StoredCookies.store(fields, from: url, in: storage)
        }
        XCTAssertEqual(storage.cookies?.count ?? 0, StoredCookies.maximumCookies)
        let ours = (storage.cookies ?? []).filter { $0.domain.hasPrefix(tag) }
        XCTAssertFalse(ours.contains { $0.domain.hasPrefix("\(tag)0.") }, "the oldest domain's cookies went first")
        XCTAssertTrue(ours.contains { $0.domain.hasPrefix("\(tag)\(domains - 1).") }, "the newest stay")
    }

    func testThatJoinedSetCookieFieldsAreSplitOutsideExpiresDates() {
        XCTAssertEqual(
            StoredCookies.setCookieFields(joined: "a=1, b=2; Expires=Wed, 09 Jun 2031 10:18:14 GMT; Path=/, c=3"),
            ["a=1", "b=2; Expires=Wed, 09 Jun 2031 10:18:14 GMT; Path=/", "c=3"])
    }
}
#endif
