import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Values `FormEncoder` cannot write: each fails its request with `requestBuildFailed` and a
/// message naming the parameter, before anything is sent; nothing crashes.
final class FormEncoderFailureTests: LoopbackTestCase {
    private struct Send: APIRequest {
        typealias Response = JSONValue
        var method: HTTPMethod = .get
        var parameters: RequestParameters
        var path: RequestPath { "/echo" }
    }

    /// The message of a request that failed before anything was sent, and the build error.
    private func failure(
        _ parameters: RequestParameters, method: HTTPMethod = .get
    ) throws -> (
        message: String, error: RequestBuildError?
    ) {
        let result = try XCTUnwrap(sendAndWait(Send(method: method, parameters: parameters)))
        guard case .transportError(let error) = result else {
            XCTFail("expected a build failure, got \(result)")
            return ("", nil)
        }
        XCTAssertEqual(error.reason, .requestBuildFailed)
        return (error.message, error.underlyingError as? RequestBuildError)
    }

    func testThatATopLevelValueMustBeKeyed() throws {
        let list = try failure(.query(encoding: [1, 2]))
        XCTAssertEqual(
            list.message,
            "The request definition failed: the query parameters from Array<Int> could not be encoded: the value "
                + "must be keyed (a struct or a dictionary) to give parameter names, not a list")
        XCTAssertTrue(try failure(.query(encoding: "text")).message.hasSuffix("not a single value"))
        XCTAssertTrue(try failure(.query(encoding: Int?.none)).message.hasSuffix("not nil"))
        XCTAssertEqual(server.requestCount, 0)
    }

    private struct Grid: Encodable, Sendable {
        let matrix: [[Int]]
    }

    func testThatAListInsideAListNeedsIndexes() throws {
        let grid = Grid(matrix: [[1, 2], [3]])
        for style in [FormEncoder.ArrayStyle.repeatedKey, .brackets, .commaSeparated] {
            let message = try failure(.query(encoding: grid, encoder: FormEncoder(arrayEncoding: style))).message
            XCTAssertTrue(
                message.hasSuffix(
                    "`matrix[0]`: a list inside a list can only be written with the FormEncoder's arrayEncoding "
                        + ".indexInBrackets"),
                message)
        }
        // The client's array encoding is no different.
        XCTAssertTrue(try failure(.query(encoding: grid)).message.contains("`matrix[0]`: a list inside a list"))
    }

    func testThatAListOfKeyedValuesNeedsBracketsOrIndexes() throws {
        let items = ["items": [["id": 1], ["id": 2]]]
        let message = try failure(.query(encoding: items)).message
        XCTAssertTrue(
            message.hasSuffix(
                "`items[0]`: a list of keyed values cannot be written as repeated keys: set the FormEncoder's "
                    + "arrayEncoding to .indexInBrackets or .brackets"),
            message)
        let comma = try failure(.query(encoding: items, encoder: FormEncoder(arrayEncoding: .commaSeparated)))
        XCTAssertTrue(comma.message.contains("cannot be written as comma-separated values"), comma.message)
    }

    func testThatNonFiniteNumbersFail() throws {
        struct Price: Encodable, Sendable {
            let item: [String: Double]
        }
        let nan = try failure(.query(encoding: Price(item: ["amount": .nan])))
        XCTAssertTrue(nan.message.hasSuffix("`item[amount]`: nan is not a finite number"), nan.message)
        let infinite = try failure(.query(encoding: ["ratio": Float.infinity]))
        XCTAssertTrue(infinite.message.hasSuffix("`ratio`: inf is not a finite number"), infinite.message)
        // Formatters would write some text for it; every strategy refuses it.
        let date = Date(timeIntervalSince1970: .infinity)
        for strategy: FormEncoder.DateEncoding in [.secondsSince1970, .iso8601, .formatted(DateFormatter())] {
            let message = try failure(.query(encoding: ["at": date], encoder: FormEncoder(dateEncoding: strategy)))
                .message
            XCTAssertTrue(message.hasSuffix("`at`: the date is not finite (inf s since 1970)"), message)
        }
        let huge = Date(timeIntervalSince1970: .greatestFiniteMagnitude)
        let milliseconds = try failure(
            .query(encoding: ["at": huge], encoder: FormEncoder(dateEncoding: .millisecondsSince1970)))
        XCTAssertTrue(
            milliseconds.message.hasSuffix("`at`: the date is not finite (inf ms since 1970)"), milliseconds.message)
    }

    func testThatAFormBodyFailureIsABodyEncodingFailure() throws {
        let result = try failure(
            .form(encoding: ["a": [[1]]], encoder: FormEncoder(arrayEncoding: .brackets)), method: .post)
        guard case .bodyEncodingFailed(let detail)? = result.error else {
            return XCTFail("\(String(describing: result.error))")
        }
        XCTAssertEqual(
            detail,
            "the form from Dictionary<String, Array<Array<Int>>> could not be encoded: `a[0]`: a list inside a "
                + "list can only be written with the FormEncoder's arrayEncoding .indexInBrackets")
        XCTAssertEqual(server.requestCount, 0)
    }

    /// Writes what its closure says, however odd.
    private struct Custom: Encodable, Sendable {
        let write: @Sendable (any Encoder) throws -> Void
        func encode(to encoder: any Encoder) throws { try write(encoder) }
    }

    private struct Refused: Error, CustomStringConvertible {
        var description: String { "no, thanks" }
    }

    func testThatAValuesOwnErrorAndMisuseOfContainersFailWithoutACrash() throws {
        let thrown = try failure(.query(encoding: Custom { _ in throw Refused() }))
        XCTAssertTrue(thrown.message.hasSuffix("the value's encode(to:) threw: no, thanks"), thrown.message)

        // A keyed container, then a single value in the same place.
        let twice = Custom { encoder in
            enum Key: CodingKey { case a }
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(1, forKey: .a)
            var single = encoder.singleValueContainer()
            try single.encode("x")
        }
        let mixed = try failure(.query(encoding: twice))
        XCTAssertTrue(mixed.message.hasSuffix("a value is encoded where a keyed value already was"), mixed.message)

        // A list, then a keyed container in the same place: recorded, since asking cannot throw.
        let listThenKeyed = Custom { encoder in
            enum Key: CodingKey { case b }
            var list = encoder.unkeyedContainer()
            try list.encode(1)
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode(2, forKey: .b)
        }
        let recorded = try failure(.query(encoding: ["field": listThenKeyed]))
        XCTAssertTrue(
            recorded.message.hasSuffix("`field`: a keyed value is encoded where a list already was"), recorded.message)
    }
}
