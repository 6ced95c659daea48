import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

/// `JSONValue`'s subscripts over a response of unknown shape, read from the loopback server.
final class JSONValueAccessTests: LoopbackTestCase {
    func testThatAPathOfSubscriptsReadsAResponseAndGivesNilForWhatIsMissing() async throws {
        // GIVEN a server answering a nested document
        server.route("/me") { _ in
            .json(
                string:
                    #"{"user":{"name":"Ada","age":36,"admin":false,"score":2.5},"items":[{"id":7},{"id":8}],"gone":null}"#
            )
        }

        // WHEN it is decoded as a JSONValue and read with subscripts
        let body = try await client.value(for: Endpoint<JSONValue>(path: "/me"))

        // THEN each path gives its value, and a missing step or the wrong kind gives nil
        XCTAssertEqual(body["user"]["name"].stringValue, "Ada")
        XCTAssertEqual(body["user"]["age"].intValue, 36)
        XCTAssertEqual(body["user"]["admin"].boolValue, false)
        XCTAssertEqual(body["user"]["score"].doubleValue, 2.5)
        XCTAssertEqual(body["items"][1]["id"].intValue, 8)
        XCTAssertEqual(body["items"]?.arrayValue?.count, 2)
        XCTAssertEqual(body["user"]?.objectValue?.keys.sorted(), ["admin", "age", "name", "score"])
        XCTAssertEqual(body["gone"]?.isNull, true)
        // the whole chain without `?`, to collections and null alike
        XCTAssertEqual(body["items"][0]["id"].intValue, 7)
        XCTAssertEqual(body["items"].arrayValue?.map { $0["id"].intValue }, [7, 8])
        XCTAssertEqual(body["user"].objectValue?["name"], "Ada")
        XCTAssertTrue(body["gone"].isNull)
        XCTAssertFalse(body["user"]["gone"].isNull, "a missing member is not null")
        XCTAssertFalse(body["user"]["name"].isNull)
        XCTAssertNil(body["user"]["missing"].arrayValue)
        XCTAssertNil(body["user"]["name"].objectValue, "text is not an object")
        XCTAssertNil(body["user"]["missing"]["deeper"].stringValue)
        XCTAssertNil(body["items"][2]["id"].intValue, "out of range")
        XCTAssertNil(body["items"]["id"], "a key on an array")
        XCTAssertNil(body["user"][0], "an index on an object")
        XCTAssertNil(body["user"]["age"].stringValue, "a number is not text")
        XCTAssertNil(body["user"]["score"].intValue, "2.5 is not an integer")
    }
}
