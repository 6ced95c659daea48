import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The logger never writes a secret, at any level; the cURL description redacts too.
final class LoggerTests: LoopbackTestCase {
    private let secrets = [
        "s3cr3t-token", "cookie-value", "set-cookie-value", "proxy-pass", "query-secret", "body-secret",
    ]

    struct Login: APIRequest {
        typealias Response = JSONValue
        var method: HTTPMethod { .post }
        var path: RequestPath { "/login" }
        var headers: HTTPHeaders {
            [
                "Authorization": "Bearer s3cr3t-token", "Cookie": "session=cookie-value",
                "Proxy-Authorization": "Basic proxy-pass",
            ]
        }
        var parameters: RequestParameters {
            .json(["user": "ada", "password": "body-secret"]).appendingQuery([
                "access_token": "query-secret", "page": 1,
            ])
        }
    }

    func testThatNoSecretAppearsInAnyLogLineAtAnyLevel() async {
        server.route("/login") { _ in
            .json(
                ["ok": true, "refresh_token": "body-secret"],
                headers: [("Set-Cookie", "id=set-cookie-value; HttpOnly")])
        }
        for level in [LoggerPlugin.Level.error, .info, .debug] {
            let lines = Locked<[String]>([])
            let client = makeClient {
                $0.plugins = [LoggerPlugin(level: level, sink: { lines.value.append($0) })]
            }
            _ = await client.send(Login())
            let text = lines.value.joined(separator: "\n")
            for secret in secrets { XCTAssertFalse(text.contains(secret), "\(level) leaked \(secret):\n\(text)") }
            if level == .debug {
                XCTAssertTrue(text.contains("Authorization: REDACTED"), text)
                XCTAssertTrue(text.contains("page=1"), text)
                XCTAssertTrue(text.contains("\"user\":\"ada\""), text)
            }
        }
    }

    func testThatLevelsAndTheBodyLimitApply() async {
        server.route("/big") { _ in .text(String(repeating: "x", count: 10_000)) }
        struct Big: APIRequest {
            typealias Response = String
            var path: RequestPath { "/big" }
        }
        let debug = Locked<[String]>([])
        let client = makeClient {
            $0.plugins = [LoggerPlugin(level: .debug, bodyLimit: 100, sink: { debug.value.append($0) })]
        }
        _ = await client.send(Big())
        let received = debug.value.first { $0.hasPrefix("←") } ?? ""
        XCTAssertTrue(received.contains("… (10000 bytes)"), received)
        XCTAssertLessThan(received.count, 1000)

        let quiet = Locked<[String]>([])
        let errorsOnly = makeClient { $0.plugins = [LoggerPlugin(level: .error, sink: { quiet.value.append($0) })] }
        _ = await errorsOnly.send(Big())
        XCTAssertEqual(quiet.value, [])
        server.route("/big") { _ in .status(503) }
        _ = await errorsOnly.send(Big())
        XCTAssertEqual(quiet.value.count, 1)
        XCTAssertTrue(quiet.value.first?.contains("503") ?? false)
    }

    func testThatTheCURLCommandIsRunnableAndRedacted() throws {
        let request = try client.urlRequest(for: Login())
        let command = request.curlCommand()
        XCTAssertTrue(command.hasPrefix("curl -X POST"), command)
        XCTAssertTrue(command.contains("-H 'Authorization: REDACTED'"), command)
        XCTAssertTrue(command.contains("--data-binary"), command)
        for secret in secrets { XCTAssertFalse(command.contains(secret), command) }
        XCTAssertTrue(request.curlCommand(redactor: nil).contains("s3cr3t-token"))
        var quoted = URLRequest(url: URL(string: "https://example.test/a")!)
        quoted.httpBody = Data("it's".utf8)
        XCTAssertTrue(quoted.curlCommand().contains(#"'it'\''s'"#))
    }
}
