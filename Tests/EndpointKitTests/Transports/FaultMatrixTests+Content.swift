import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rows where the HTTP is sound but the answer is not what the request expects.
extension FaultMatrixTests {
    func testThatAnHTML502IsAServerFailureKeepingThePage() throws {
        try forEachTransport {
            let page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
            server.route("/row") { _ in .text(page, status: 502, contentType: "text/html") }
            let result = sendFault()
            let failure = try XCTUnwrap(result?.serverFailure, "\(String(describing: result))")
            XCTAssertEqual(failure.kind, .httpStatus)
            XCTAssertEqual(failure.statusCode, 502)
            XCTAssertNil(failure.message)
            XCTAssertEqual(failure.bodyText, page)
            XCTAssertEqual(failure.metadata.header("Content-Type"), "text/html")
        }
    }

    func testThatA200WithAnEmptyBodyIsADecodingFailure() throws {
        try forEachTransport {
            server.route("/row") { _ in
                .response(status: 200, headers: [("Content-Type", "application/json")], body: Data())
            }
            let result = sendFault()
            XCTAssertEqual(result?.transportReason, .decodingFailed, "\(String(describing: result))")
            XCTAssertEqual(result?.metadata?.statusCode, 200)
            XCTAssertEqual(result?.metadata?.data, Data())
        }
    }

    func testThatInvalidUTF8InAJSONStringIsADecodingFailure() throws {
        try forEachTransport {
            // "name": "a<FF>b": 0xFF never occurs in UTF-8.
            let body = Data(#"{"id":1,"name":"a"#.utf8) + Data([0xFF]) + Data(#"b"}"#.utf8)
            server.route("/row") { _ in
                .response(status: 200, headers: [("Content-Type", "application/json")], body: body)
            }
            let result = sendFault()
            XCTAssertEqual(result?.transportReason, .decodingFailed, "\(String(describing: result))")
            XCTAssertEqual(result?.metadata?.data, body, "the raw body is kept")
        }
    }

    func testThatABodyOverTheSizeCapIsResponseTooLarge() throws {
        try forEachTransport {
            client = makeClient { $0.maximumResponseSize = 1000 }
            let big = Data(("{\"id\":1,\"name\":\"" + String(repeating: "a", count: 5000) + "\"}").utf8)
            server.route("/row") { _ in
                .response(status: 200, headers: [("Content-Type", "application/json")], body: big)
            }
            assertFault(.responseTooLarge(limit: 1000), "Content-Length")
            let chunks = stride(from: 0, to: big.count, by: 400).map { big[$0..<min($0 + 400, big.count)] }
            server.route("/row") { _ in
                .chunked(
                    status: 200, headers: [("Content-Type", "application/json")], chunks: chunks, delayBetweenChunks: 0)
            }
            assertFault(.responseTooLarge(limit: 1000), "chunked")
        }
    }

    func testThatAHeaderOver64KBIsAcceptedAndAnOversizedOneIsABadResponse() throws {
        try forEachTransport {
            let large = String(repeating: "v", count: 70 * 1024)
            server.route("/row") { _ in .json(["id": 1, "name": "a"], headers: [("X-Large", large)]) }
            let result = sendFault()
            XCTAssertEqual(result?.value, Item(id: 1, name: "a"), "\(String(describing: result?.failure))")
            XCTAssertEqual(result?.metadata?.header("X-Large"), large)
            let oversized = String(repeating: "v", count: 1024 * 1024)
            server.route("/row") { _ in .json(["id": 1, "name": "a"], headers: [("X-Oversized", oversized)]) }
            let refused = sendFault()
            XCTAssertEqual(refused?.transportReason, .badResponse, "\(String(describing: refused))")
            let many = (0..<5).map { ("X-Part-\($0)", String(repeating: "v", count: 90 * 1024)) }
            server.route("/row") { _ in .json(["id": 1, "name": "a"], headers: many) }
            let refusedToo = sendFault()
            XCTAssertEqual(refusedToo?.transportReason, .badResponse, "\(String(describing: refusedToo))")
        }
    }
}
