import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// `String` responses in the charset their `Content-Type` names, and empty bodies by rule
/// (Alamofire's `emptyResponseCodes` and `emptyRequestMethods`), over the loopback server.
final class TextAndEmptyResponseTests: LoopbackTestCase {
    /// Serves `body` at `path` with `contentType`.
    private func serve(_ path: String, _ body: [UInt8], contentType: String?) {
        server.route(path) { _ in
            .response(status: 200, headers: contentType.map { [("Content-Type", $0)] } ?? [], body: Data(body))
        }
    }

    private func text(_ path: RequestPath) async -> APIResult<String> {
        await client.send(Endpoint<String>(path: path))
    }

    func testThatTextIsDecodedInTheCharsetItsContentTypeNames() async {
        serve("/latin1", [0x63, 0x61, 0x66, 0xE9], contentType: "text/plain; charset=ISO-8859-1")
        serve("/cp1252", [0x80, 0x35], contentType: "text/plain;charset=\"windows-1252\"")
        serve("/utf16", [0x68, 0x00, 0xE9, 0x00], contentType: "text/plain; charset=utf-16le")
        serve("/utf8", Array("café".utf8), contentType: "text/plain")
        serve("/bare", Array("naïve".utf8), contentType: nil)

        let latin1 = await text("/latin1").value
        let cp1252 = await text("/cp1252").value
        let utf16 = await text("/utf16").value
        let utf8 = await text("/utf8").value
        let bare = await text("/bare").value
        XCTAssertEqual(latin1, "café")
        XCTAssertEqual(cp1252, "€5")
        XCTAssertEqual(utf16, "hé")
        XCTAssertEqual(utf8, "café", "UTF-8 when the type names no charset")
        XCTAssertEqual(bare, "naïve", "UTF-8 without a Content-Type")
    }

    func testThatBytesThatDoNotFitTheCharsetAreADecodingFailure() async {
        serve("/ascii", [0x63, 0xE9], contentType: "text/plain; charset=us-ascii")
        serve("/broken-utf8", [0x63, 0xC3], contentType: "text/plain; charset=utf-8")
        serve("/unknown", Array("x".utf8), contentType: "text/plain; charset=x-klingon")

        let ascii = await text("/ascii")
        let broken = await text("/broken-utf8")
        let unknown = await text("/unknown")
        XCTAssertEqual(ascii.failure?.transportError?.reason, .decodingFailed)
        XCTAssertEqual(ascii.failure?.transportError?.message.contains("not valid us-ascii"), true)
        XCTAssertEqual(broken.failure?.transportError?.reason, .decodingFailed)
        XCTAssertEqual(unknown.failure?.transportError?.reason, .decodingFailed)
        XCTAssertEqual(unknown.failure?.transportError?.message.contains("x-klingon"), true)
    }

    func testThatAnEmptyBodyDecodesOnlyWhereTheRuleExpectsOne() async {
        server.route("/no-content") { _ in .response(status: 204, headers: [], body: Data()) }
        server.route("/empty-ok") { _ in .response(status: 200, headers: [], body: Data()) }

        // By default an empty body decodes for any status and method.
        let plain = await client.send(Endpoint<Empty>(path: "/empty-ok"))
        XCTAssertNotNil(plain.value)

        // Alamofire's rule: 204 and 205, and HEAD.
        var alamofire = ResponseValidation()
        alamofire.emptyResponseStatusCodes = [204, 205]
        alamofire.emptyResponseMethods = [.head]
        let strict = makeClient { $0.validation = alamofire }
        let noContent = await strict.send(Endpoint<Empty>(path: "/no-content"))
        let absent = await strict.send(Endpoint<Item?>(path: "/no-content"))
        let head = await strict.send(Endpoint<Empty>(method: .head, path: "/empty-ok"))
        let empty200 = await strict.send(Endpoint<Empty>(path: "/empty-ok"))
        XCTAssertNotNil(noContent.value)
        XCTAssertEqual(absent.value, .some(nil))
        XCTAssertNotNil(head.value)
        XCTAssertEqual(empty200.failure?.transportError?.reason, .decodingFailed)
        XCTAssertEqual(empty200.failure?.transportError?.message.contains("HTTP 200 to GET"), true)
    }
}
