import EndpointKit
import Foundation
import XCTest

/// `JSONValue` to and from models, Foundation objects (`[String: Any]`) and JSON text.
final class JSONValueConversionTests: XCTestCase {
    private struct Profile: Codable, Equatable {
        let id: Int
        let name: String
        let score: Double
        let verified: Bool
        let tags: [String]
        let manager: String?
    }

    private let ada = Profile(id: 7, name: "Ada", score: 9.5, verified: true, tags: ["x", "y"], manager: nil)

    // MARK: - Models

    func testThatAModelBecomesJSONAndComesBack() throws {
        let json = try JSONValue(encoding: ada)
        XCTAssertEqual(json, ["id": 7, "name": "Ada", "score": 9.5, "verified": true, "tags": ["x", "y"]])
        XCTAssertEqual(try json.decoded(as: Profile.self), ada)
        XCTAssertEqual(
            try JSONValue(encoding: ada).jsonString(),
            #"{"id":7,"name":"Ada","score":9.5,"tags":["x","y"],"verified":true}"#)
    }

    func testThatTheEncodersAndDecodersStrategiesApply() throws {
        struct Event: Codable, Equatable {
            let startsAt: Date
            let roomName: String
        }
        let event = Event(startsAt: Date(timeIntervalSince1970: 0), roomName: "Hall")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = try JSONValue(encoding: event, encoder: encoder)
        XCTAssertEqual(json, ["starts_at": "1970-01-01T00:00:00Z", "room_name": "Hall"])

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertEqual(try json.decoded(as: Event.self, decoder: decoder), event)
    }

    func testThatAModelComesFromADictionary() throws {
        let dictionary: [String: Any] = [
            "id": 7, "name": "Ada", "score": 9.5, "verified": true, "tags": ["x", "y"], "manager": NSNull(),
        ]
        XCTAssertEqual(try JSONValue(jsonObject: dictionary).decoded(as: Profile.self), ada)
        let model: Profile = try JSONValue(jsonObject: dictionary).decoded()
        XCTAssertEqual(model, ada)
    }

    func testThatAModelThatDoesNotFitSaysWhere() {
        let json: JSONValue = ["id": 7, "name": "Ada", "score": 1, "verified": "yes", "tags": []]
        XCTAssertThrowsError(try json.decoded(as: Profile.self)) { error in
            guard case .decodingFailed(let path, _) = error as? JSONConversionError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, "$.verified")
            XCTAssertTrue("\(error)".hasPrefix("The JSON at $.verified could not be decoded: "), "\(error)")
        }
        let nested: JSONValue = ["items": [["id": 1]]]
        XCTAssertThrowsError(try nested.decoded(as: [String: [Item]].self)) { error in
            XCTAssertEqual(
                error as? JSONConversionError, .decodingFailed(path: "$.items[0].name", reason: "the key is missing."))
        }
    }

    func testThatAValueThatCannotBeEncodedThrows() {
        XCTAssertThrowsError(try JSONValue(encoding: ["score": Double.nan])) { error in
            guard case .encodingFailed(let path, _) = error as? JSONConversionError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, "$.score")
        }
        XCTAssertThrowsError(try JSONValue.double(.infinity).decoded(as: Double.self)) { error in
            XCTAssertEqual(error as? JSONConversionError, .notJSON(path: "$", found: "a number that is not finite"))
        }
    }

    // MARK: - Foundation objects

    func testThatNumbersKeepTheirKind() throws {
        let object: [String: Any] = [
            "true": true, "false": false, "one": 1, "zero": 0, "half": 1.5, "two": 2.0,
            "big": 9_007_199_254_740_993, "min": Int.min, "int8": Int8(-3), "uint64": UInt64(42),
            "float": Float(1.1), "decimal": Decimal(string: "12.25") as Any, "wholeDecimal": Decimal(12),
        ]
        let json = try JSONValue(jsonObject: object)
        XCTAssertEqual(
            json,
            [
                "true": .bool(true), "false": .bool(false), "one": .int(1), "zero": .int(0), "half": .double(1.5),
                "two": .double(2), "big": .int(9_007_199_254_740_993), "min": .int(Int.min), "int8": .int(-3),
                "uint64": .int(42), "float": .double(1.1), "decimal": .double(12.25), "wholeDecimal": .int(12),
            ])
    }

    func testThatNSNumbersKeepTheirKind() throws {
        let numbers: [NSNumber] = [
            NSNumber(value: true), NSNumber(value: false), NSNumber(value: 1), NSNumber(value: 0),
            NSNumber(value: 1.5), NSNumber(value: Int64(9_007_199_254_740_993)), NSNumber(value: Int8(1)),
            NSNumber(value: UInt64.max), NSNumber(value: Float(0.1)), NSDecimalNumber(string: "3"),
        ]
        XCTAssertEqual(
            try JSONValue(jsonObject: numbers),
            [
                .bool(true), .bool(false), .int(1), .int(0), .double(1.5), .int(9_007_199_254_740_993), .int(1),
                .double(Double(UInt64.max)), .double(0.1), .int(3),
            ])
    }

    func testThatJSONSerializationOutputConvertsFaithfully() throws {
        let text =
            #"{"t":true,"f":false,"one":1,"half":1.5,"two":2.0,"big":9007199254740993,"n":null,"s":"x","a":[1,[]]}"#
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let expected: JSONValue = [
            "t": true, "f": false, "one": 1, "half": 1.5, "two": .double(2), "big": .int(9_007_199_254_740_993),
            "n": nil, "s": "x", "a": [1, []],
        ]
        XCTAssertEqual(try JSONValue(jsonObject: object), expected)
        XCTAssertEqual(try JSONValue(jsonString: text), expected)
    }

    func testThatNilAndNSNullBecomeNull() throws {
        let optionals: [String: Any?] = ["absent": nil, "present": 1, "flag": Bool?.some(true)]
        XCTAssertEqual(try JSONValue(jsonObject: optionals as Any), ["absent": nil, "present": 1, "flag": true])
        XCTAssertEqual(try JSONValue(jsonObject: [NSNull(), "a"] as [Any]), [nil, "a"])
    }

    func testThatWhatIsNotJSONThrowsATypedErrorWithItsPath() {
        let cases: [(Any, JSONConversionError)] = [
            (
                ["user": ["born": Date(timeIntervalSince1970: 0)]],
                .notJSON(path: "$.user.born", found: "a value of type Date")
            ),
            (["scores": [1.0, Double.nan]], .notJSON(path: "$.scores[1]", found: "the number nan")),
            ([Float.infinity], .notJSON(path: "$[0]", found: "the number inf")),
            (["ids": [1: "one"]], .notJSON(path: "$.ids", found: "a dictionary key of type Int")),
            (NSObject(), .notJSON(path: "$", found: "a value of type NSObject")),
        ]
        for (object, expected) in cases {
            XCTAssertThrowsError(try JSONValue(jsonObject: object), "\(expected)") { error in
                XCTAssertEqual(error as? JSONConversionError, expected)
            }
        }
        XCTAssertEqual(
            JSONConversionError.notJSON(path: "$.user.born", found: "a value of type Date").description,
            "The value at $.user.born is not JSON: a value of type Date.")
    }

    func testThatJSONObjectGoesBackToFoundation() throws {
        let json: JSONValue = ["b": true, "i": 1, "d": 1.5, "n": nil, "s": "x", "a": [1, "two"], "o": ["k": "v"]]
        let object = try XCTUnwrap(json.jsonObject as? [String: Any])
        XCTAssertEqual(object["b"] as? Bool, true)
        XCTAssertEqual(object["i"] as? Int, 1)
        XCTAssertEqual(object["d"] as? Double, 1.5)
        XCTAssertTrue(object["n"] is NSNull)
        XCTAssertEqual(object["s"] as? String, "x")
        XCTAssertEqual((object["o"] as? [String: Any])?["k"] as? String, "v")
        XCTAssertEqual(try JSONValue(jsonObject: object), json)
        XCTAssertTrue(JSONSerialization.isValidJSONObject(object))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        XCTAssertEqual(try JSONValue(jsonString: String(decoding: data, as: UTF8.self)), json)
    }

    // MARK: - JSON text

    func testThatTextParsesEveryKindOfValue() throws {
        XCTAssertEqual(
            try JSONValue(jsonString: #"{"id":7,"tags":["a"],"ok":true,"x":null}"#),
            ["id": 7, "tags": ["a"], "ok": true, "x": nil])
        XCTAssertEqual(
            try JSONValue(jsonString: "[1, 1.5, -2, 1e3]"), [.int(1), .double(1.5), .int(-2), .double(1000)])
        XCTAssertEqual(try JSONValue(jsonString: "9007199254740993"), .int(9_007_199_254_740_993))
        XCTAssertEqual(try JSONValue(jsonString: "true"), .bool(true))
        XCTAssertEqual(try JSONValue(jsonString: "1"), .int(1))
        XCTAssertEqual(try JSONValue(jsonString: #""a/b""#), "a/b")
        XCTAssertEqual(try JSONValue(jsonString: " null "), .null)
    }

    func testThatInvalidTextThrowsATypedError() {
        for text in ["", "{", "tru", "{'a':1}", "[01]", "[1] x", "[NaN]"] {
            XCTAssertThrowsError(try JSONValue(jsonString: text), text) { error in
                guard case .invalidJSONText(let reason) = error as? JSONConversionError else {
                    return XCTFail("\(error)")
                }
                XCTAssertFalse(reason.isEmpty)
                XCTAssertTrue("\(error)".hasPrefix("The text is not valid JSON: "))
            }
        }
    }

    func testThatTextIsWrittenCompactSortedOrPretty() throws {
        let json: JSONValue = ["b": [1, 2], "a": "x/y", "c": ["z": nil]]
        XCTAssertEqual(json.jsonString(), #"{"a":"x/y","b":[1,2],"c":{"z":null}}"#)
        XCTAssertEqual(
            json.jsonString(prettyPrinted: true),
            """
            {
              "a" : "x/y",
              "b" : [
                1,
                2
              ],
              "c" : {
                "z" : null
              }
            }
            """)
        let unsorted = json.jsonString(sortedKeys: false)
        XCTAssertEqual(try JSONValue(jsonString: unsorted), json)
        XCTAssertEqual(JSONValue.double(1.5).jsonString(), "1.5")
        XCTAssertEqual(JSONValue.int(9_007_199_254_740_993).jsonString(), "9007199254740993")
    }

    func testThatANumberThatIsNotFiniteIsWrittenAsNull() {
        let json: JSONValue = ["a": .double(.nan), "b": [.double(-.infinity), 1]]
        XCTAssertEqual(json.jsonString(), #"{"a":null,"b":[null,1]}"#)
    }

    func testThatTheGuidesExampleWorks() throws {
        // Docs/GettingStarted.md, "Models and JSON".
        struct Profile: Codable, Sendable, Equatable {
            let id: Int
            let name: String
        }
        let profile = Profile(id: 7, name: "Ada")

        let text = try JSONValue(encoding: profile).jsonString()  // {"id":7,"name":"Ada"}
        let object = try JSONValue(encoding: profile).jsonObject as? [String: Any]  // ["id": 7, "name": "Ada"]
        let fromText = try JSONValue(jsonString: text).decoded(as: Profile.self)
        let fromObject = try JSONValue(jsonObject: ["id": 7, "name": "Ada"]).decoded(as: Profile.self)
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase  // your strategies apply
        let pretty = try JSONValue(encoding: profile, encoder: encoder).jsonString(prettyPrinted: true)

        XCTAssertEqual(text, #"{"id":7,"name":"Ada"}"#)
        XCTAssertEqual(object?["id"] as? Int, 7)
        XCTAssertEqual(object?["name"] as? String, "Ada")
        XCTAssertEqual(fromText, profile)
        XCTAssertEqual(fromObject, profile)
        XCTAssertEqual(pretty, "{\n  \"id\" : 7,\n  \"name\" : \"Ada\"\n}")
        XCTAssertThrowsError(try JSONValue(jsonObject: ["born": Date()])) { error in
            XCTAssertEqual("\(error)", "The value at $.born is not JSON: a value of type Date.")
        }
    }

    func testThatAModelRoundTripsThroughText() throws {
        let text = try JSONValue(encoding: ada).jsonString()
        XCTAssertEqual(try JSONValue(jsonString: text).decoded(as: Profile.self), ada)
    }
}
