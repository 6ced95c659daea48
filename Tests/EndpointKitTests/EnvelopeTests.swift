import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every envelope shape, success and failure, decoded without a network.
final class EnvelopeTests: XCTestCase {
    private struct Items: APIRequest {
        typealias Response = [Item]
        var path: RequestPath { "/items" }
    }

    private struct One: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/item" }
    }

    private struct Nothing: APIRequest {
        typealias Response = Empty
        var path: RequestPath { "/nothing" }
    }

    func testThatErrorIDResultShapeDecodesPayloadOnSuccess() throws {
        let json = #"{"Error":{"ID":0,"Message":null},"Result":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}"#
        let context = makeContext(json, envelope: .errorIDResult())
        XCTAssertEqual(try Items().decode(context), [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
        XCTAssertEqual(context.envelopeInfo?.status, 0)
        XCTAssertEqual(context.envelopeInfo?.isSuccess, true)
    }

    func testThatErrorIDResultShapeReportsBusinessFailure() {
        let json = #"{"Error":{"ID":17,"Message":"Token expired"},"Result":null}"#
        XCTAssertThrowsError(try Items().decode(makeContext(json, envelope: .errorIDResult()))) {
            XCTAssertEqual($0 as? BusinessFailure, BusinessFailure(code: 17, message: "Token expired"))
        }
    }

    func testThatStatusDataShapeSucceedsOn500AndTakesStringDataAsMessage() throws {
        let ok = #"{"status":500,"data":{"id":3,"name":"c"}}"#
        XCTAssertEqual(try One().decode(makeContext(ok, envelope: .statusData())), Item(id: 3, name: "c"))
        let stringStatus = #"{"status":"500","data":{"id":3,"name":"c"}}"#
        XCTAssertEqual(try One().decode(makeContext(stringStatus, envelope: .statusData())), Item(id: 3, name: "c"))

        let failure = #"{"status":401,"data":"Please log in again"}"#
        XCTAssertThrowsError(try One().decode(makeContext(failure, envelope: .statusData()))) {
            XCTAssertEqual($0 as? BusinessFailure, BusinessFailure(code: 401, message: "Please log in again"))
        }
    }

    func testThatStatusResultShapeCarriesCodeMessageAndPage() throws {
        let ok =
            #"{"status":200,"errCode":"","errMsg":"","page":{"totalRows":"95","hasMore":true},"result":[{"id":1,"name":"a"}]}"#
        let context = makeContext(ok, envelope: .statusResult())
        XCTAssertEqual(try Items().decode(context), [Item(id: 1, name: "a")])
        XCTAssertEqual(context.envelopeInfo?.page, PageInfo(totalCount: 95, hasMore: true))

        let failure = #"{"status":400,"errCode":"E_PARAM","errMsg":"bad page","result":null}"#
        XCTAssertThrowsError(try Items().decode(makeContext(failure, envelope: .statusResult()))) {
            XCTAssertEqual($0 as? BusinessFailure, BusinessFailure(code: "E_PARAM", message: "bad page"))
        }
    }

    func testThatNoEnvelopeDecodesTheWholeBody() throws {
        XCTAssertEqual(try One().decode(makeContext(#"{"id":9,"name":"z"}"#)), Item(id: 9, name: "z"))
        XCTAssertNil(makeContext("{}").envelopeInfo)
    }

    func testThatMissingStatusIsADecodingErrorNotSuccess() {
        XCTAssertThrowsError(try Items().decode(makeContext(#"{"Result":[]}"#, envelope: .errorIDResult()))) {
            XCTAssertTrue($0 is DecodingError, "\($0)")
        }
    }

    func testThatMissingPayloadFailsUnlessTheTypeAllowsIt() throws {
        let json = #"{"status":200,"errCode":"","errMsg":"","result":null}"#
        XCTAssertThrowsError(try Items().decode(makeContext(json, envelope: .statusResult())))
        XCTAssertEqual(try Nothing().decode(makeContext(json, envelope: .statusResult())), Empty())
        struct Maybe: APIRequest {
            typealias Response = Item?
            var path: RequestPath { "/maybe" }
        }
        XCTAssertNil(try Maybe().decode(makeContext(json, envelope: .statusResult())) as Item?)
    }

    func testThatEmptyResponsesStillCheckTheBusinessStatus() throws {
        XCTAssertEqual(try Nothing().decode(makeContext("")), Empty())
        XCTAssertEqual(try Nothing().decode(makeContext(" \n")), Empty())
        XCTAssertThrowsError(try Nothing().decode(makeContext(#"{"status":3,"data":"nope"}"#, envelope: .statusData())))
        {
            XCTAssertEqual($0 as? BusinessFailure, BusinessFailure(code: 3, message: "nope"))
        }
        XCTAssertThrowsError(try One().decode(makeContext("")))
    }

    func testThatDataAndStringResponsesBypassTheEnvelope() throws {
        struct Raw: APIRequest {
            typealias Response = Data
            var path: RequestPath { "/raw" }
        }
        struct Text: APIRequest {
            typealias Response = String
            var path: RequestPath { "/text" }
        }
        XCTAssertEqual(try Raw().decode(makeContext("abc", envelope: .errorIDResult())), Data("abc".utf8))
        XCTAssertEqual(try Text().decode(makeContext("héllo", envelope: .errorIDResult())), "héllo")
        let invalid = DecodingContext(
            data: Data([0xFF, 0xFE]), response: makeHTTPResponse(),
            request: URLRequest(url: URL(string: "http://x.test")!),
            decoder: JSONDecoder(), envelope: NoEnvelope())
        XCTAssertThrowsError(try Text().decode(invalid))
    }

    func testThatCustomKeyPathsAreNested() throws {
        let envelope = KeyPathEnvelope(
            status: "meta.code", success: ["OK"], message: "meta.msg", payload: "data.list", page: "data.paging")
        let json =
            #"{"meta":{"code":"OK"},"data":{"list":[{"id":1,"name":"a"}],"paging":{"page":2,"pageSize":10,"nextCursor":"abc"}}}"#
        let context = makeContext(json, envelope: envelope)
        XCTAssertEqual(try Items().decode(context), [Item(id: 1, name: "a")])
        XCTAssertEqual(context.envelopeInfo?.page, PageInfo(page: 2, pageSize: 10, nextCursor: "abc"))
        XCTAssertEqual(
            envelope.inspect(Data(#"{"meta":{"code":"E1","msg":"no"}}"#.utf8), decoder: JSONDecoder())?.message, "no")
    }

    func testThatNoEnvelopeFindsMessagesInCommonErrorBodies() {
        let envelope = NoEnvelope()
        func message(_ json: String) -> String? { envelope.inspect(Data(json.utf8), decoder: JSONDecoder())?.message }
        XCTAssertEqual(message(#"{"message":"Not found"}"#), "Not found")
        XCTAssertEqual(message(#"{"error":"invalid_grant","error_description":"Expired"}"#), "Expired")
        XCTAssertEqual(message(#"{"error":{"message":"Quota","code":429}}"#), "Quota")
        XCTAssertEqual(message(#"{"detail":"Nope"}"#), "Nope")
        XCTAssertNil(message("<html>502</html>"))
        XCTAssertNil(message(#"[1,2]"#))
    }

    func testThatScalarsMatchAcrossTypes() {
        XCTAssertTrue(EnvelopeScalar.int(0).matches(.string("0")))
        XCTAssertTrue(EnvelopeScalar.double(500).matches(.int(500)))
        XCTAssertTrue(EnvelopeScalar.bool(true).matches(.string("true")))
        XCTAssertFalse(EnvelopeScalar.int(1).matches(.bool(true)))
        XCTAssertFalse(EnvelopeScalar.string("ok").matches(.string("OK")))
    }
}
