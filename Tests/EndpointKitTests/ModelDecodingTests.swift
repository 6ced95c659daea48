import EndpointKit
import Foundation
import XCTest

/// Models: nested objects and arrays, key remapping, lenient decoding.
final class ModelDecodingTests: XCTestCase {
    private struct Product: Decodable, Equatable {
        let id: Int
        @Lenient var price: Double
        @Lenient var code: String
        @Lenient var stock: Int
        @Lenient var active: Bool
        @Lenient var tags: [String]
        @Lenient var note: String?
    }

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    func testThatLenientConvertsNumbersAndStringsBothWays() throws {
        let product = try decode(
            Product.self, #"{"id":1,"price":"12.5","code":12345,"stock":"7","active":"yes","tags":["a"],"note":42}"#)
        XCTAssertEqual(product.price, 12.5)
        XCTAssertEqual(product.code, "12345")
        XCTAssertEqual(product.stock, 7)
        XCTAssertTrue(product.active)
        XCTAssertEqual(product.tags, ["a"])
        XCTAssertEqual(product.note, "42")
    }

    func testThatLenientUsesDefaultsForNullMissingAndUnconvertible() throws {
        let product = try decode(Product.self, #"{"id":2,"price":null,"stock":"many","active":1}"#)
        XCTAssertEqual(product.price, 0)
        XCTAssertEqual(product.code, "")
        XCTAssertEqual(product.stock, 0)
        XCTAssertTrue(product.active)
        XCTAssertEqual(product.tags, [])
        XCTAssertNil(product.note)
    }

    func testThatOptionalAndWideNumbersConvertLikeTheirWrappedType() throws {
        struct Counts: Decodable {
            @Lenient var views: Int64
            @Lenient var likes: Int?
            @Lenient var rating: Double?
            @Lenient var ids: [Int]
        }
        let counts = try decode(Counts.self, #"{"views":"9000000000","likes":"7","rating":"x"}"#)
        XCTAssertEqual(counts.views, 9_000_000_000)
        XCTAssertEqual(counts.likes, 7)
        XCTAssertNil(counts.rating)
        XCTAssertEqual(counts.ids, [])
    }

    func testThatATypeOfTheAppsOwnDecodesStrictlyInsideLenient() throws {
        struct Level: LenientDecodable, Equatable {
            let rank: Int
        }
        struct Player: Decodable {
            @Lenient var level: Level
        }
        XCTAssertEqual(try decode(Player.self, #"{"level":{"rank":3}}"#).level, Level(rank: 3))
        XCTAssertThrowsError(try decode(Player.self, #"{}"#)) { error in
            guard case DecodingError.keyNotFound(let key, _) = error else {
                return XCTFail("expected keyNotFound, got \(error)")
            }
            XCTAssertEqual(key.stringValue, "level")
        }
        XCTAssertThrowsError(try decode(Player.self, #"{"level":"3"}"#))
    }

    func testThatStrictPropertiesStayStrict() {
        XCTAssertThrowsError(try decode(Product.self, #"{"id":"3"}"#))
    }

    func testThatKeysAreRemappedAndNestedArraysDecode() throws {
        struct Team: Decodable {
            let name: String
            let members: [User]
        }
        let team = try decode(
            Team.self, #"{"name":"core","members":[{"id":1,"name":"Ada","description":"x"},{"id":2,"name":"Bo"}]}"#)
        XCTAssertEqual(team.members.map(\.identifier), [1, 2])
        XCTAssertEqual(team.members.first?.details, "x")
        XCTAssertNil(team.members.last?.details)
    }

    func testThatJSONValueDecodesAnyDocument() throws {
        let value = try decode(JSONValue.self, #"{"a":[1,2.5,"x",true,null],"b":{}}"#)
        XCTAssertEqual(value, ["a": [1, 2.5, "x", true, nil], "b": JSONValue.object([:])])
    }

    func testThatSubclassRequestsDecodeDecodableResponses() throws {
        XCTAssertEqual(try ItemRequest(itemID: 1).decode(makeContext(#"{"id":1,"name":"a"}"#)), Item(id: 1, name: "a"))
    }

    func testThatSubclassWithNonDecodableResponseMustOverrideDecode() {
        final class Opaque: BaseRequest<NSNumberBox> {
            override var path: RequestPath { "/opaque" }
        }
        XCTAssertThrowsError(try Opaque().decode(makeContext("1")))

        final class Custom: BaseRequest<NSNumberBox> {
            override var path: RequestPath { "/custom" }
            override func decode(_ context: DecodingContext) throws -> NSNumberBox {
                NSNumberBox(value: Int(String(decoding: context.data, as: UTF8.self)) ?? -1)
            }
        }
        XCTAssertEqual(try Custom().decode(makeContext("41")).value, 41)
    }
}

/// A response type that is not `Decodable`.
struct NSNumberBox: Sendable {
    let value: Int
}
