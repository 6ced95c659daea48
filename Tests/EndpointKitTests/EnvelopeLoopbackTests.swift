import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Envelope presets over real HTTP on loopback: the client picks the envelope (its configuration's
/// or the request's), decodes through it and classifies the result. `EnvelopeTests` decodes
/// bodies without a network.
final class EnvelopeLoopbackTests: LoopbackTestCase {
    func testThatStatusDataDecodesThePayloadWhenTheStatusIsASuccessOne() throws {
        server.route("/item") { _ in .json(string: #"{"status":500,"data":{"id":3,"name":"c"}}"#) }
        let client = makeClient { $0.envelope = .statusData() }
        let result = try XCTUnwrap(sendAndWait(GetItem(), client: client))
        XCTAssertEqual(result.value, Item(id: 3, name: "c"))
        XCTAssertEqual(result.metadata?.statusCode, 200)
        XCTAssertEqual(result.metadata?.envelope?.status, 500)
        XCTAssertEqual(result.metadata?.envelope?.isSuccess, true)

        // The same preset as a request's own envelope, the client having none.
        server.route("/items") { _ in .json(string: #"{"status":"500","data":[{"id":1,"name":"a"}]}"#) }
        let items = try XCTUnwrap(sendAndWait(GetItems(envelope: .statusData())))
        XCTAssertEqual(items.value, [Item(id: 1, name: "a")])
    }

    func testThatStatusDataReportsABusinessFailureWithItsCodeAndMessage() throws {
        let body = #"{"status":401,"data":"Please log in again"}"#
        server.route("/item") { _ in .json(string: body) }
        let client = makeClient { $0.envelope = .statusData() }
        let failure = try XCTUnwrap(sendAndWait(GetItem(), client: client)?.serverFailure)
        XCTAssertEqual(failure.kind, .businessStatus)
        XCTAssertEqual(failure.statusCode, 200)
        XCTAssertEqual(failure.code, 401)
        XCTAssertEqual(failure.message, "Please log in again")
        XCTAssertEqual(failure.metadata.envelope?.isSuccess, false)
        XCTAssertEqual(failure.bodyText, body)
    }
}
