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

    /// What `level` logs for three sends of `Login`: one answered, one refused with a 401, and one
    /// whose connection closes unanswered (its transport error names the URL). All three carry
    /// every secret; the answers carry more.
    private func logLines(at level: LoggerPlugin.Level) async -> [String] {
        let lines = Locked<[String]>([])
        let client = makeClient { $0.plugins = [LoggerPlugin(level: level, sink: { lines.value.append($0) })] }
        let setCookie = ("Set-Cookie", "id=set-cookie-value; HttpOnly")
        server.route("/login") { _ in .json(["ok": true, "refresh_token": "body-secret"], headers: [setCookie]) }
        let answered = await client.send(Login())
        XCTAssertTrue(answered.isSuccess, "\(answered)")
        server.route("/login") { _ in
            .json(["message": "Wrong password", "refresh_token": "body-secret"], status: 401, headers: [setCookie])
        }
        let refused = await client.send(Login())
        XCTAssertEqual(refused.serverFailure?.statusCode, 401)
        server.route("/login") { _ in .close }
        let cutOff = await client.send(Login())
        XCTAssertNotNil(cutOff.transportReason)
        return lines.value
    }

    func testThatNoSecretAppearsInAnyLogLineAtAnyLevel() async {
        let url = "\(server.baseURL.absoluteString)/login"
        for level in [LoggerPlugin.Level.error, .info, .debug] {
            let lines = await logLines(at: level)
            let text = lines.joined(separator: "\n")
            for secret in secrets { XCTAssertFalse(text.contains(secret), "\(level) leaked \(secret):\n\(text)") }
            // Every level reports both failures; the transport error's message names the URL.
            let failures = lines.filter { $0.hasPrefix("✗ ") }
            XCTAssertEqual(failures.count, 2, "\(level):\n\(text)")
            XCTAssertTrue(failures.contains { $0.contains("Login] Server failure: HTTP 401, Wrong password") }, text)
            XCTAssertTrue(failures.contains { $0.contains("(\(url))") }, text)
            guard level >= .info else {
                XCTAssertEqual(lines.count, 2, "only the failures at .error:\n\(text)")
                continue
            }
            // One message per attempt sent, per answer or error, per completed request; .debug adds
            // lines to a message, under the first.
            let firstLines = lines.map { String($0.prefix { $0 != "\n" }) }
            let sent = firstLines.filter { $0.hasPrefix("→ ") }
            XCTAssertEqual(sent.count, 3, text)
            for line in sent { XCTAssertTrue(line.hasSuffix("Login] POST \(url)?access_token=REDACTED&page=1"), line) }
            let received = firstLines.filter { $0.hasPrefix("← ") }
            guard received.count == 3 else {
                XCTFail("one answer or error per attempt:\n\(text)")
                continue
            }
            XCTAssertTrue(received[0].contains("Login] HTTP 200, "), text)
            XCTAssertTrue(received[1].contains("Login] HTTP 401, "), text)
            XCTAssertTrue(received[2].contains("(\(url))"), text)
            XCTAssertEqual(lines.filter { $0.hasPrefix("✓ ") && $0.contains("Login] succeeded in ") }.count, 1, text)
            if level == .info {
                XCTAssertEqual(lines.count, 9, text)
                XCTAssertFalse(text.contains("Authorization"), "headers are for .debug:\n\(text)")
            } else {
                XCTAssertTrue(text.contains("Authorization: REDACTED"), text)
                XCTAssertTrue(text.contains("\"user\":\"ada\""), text)
                XCTAssertTrue(text.contains("\"refresh_token\":\"REDACTED\""), text)
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
