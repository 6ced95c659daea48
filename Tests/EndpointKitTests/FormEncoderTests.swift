import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Encodable` values as query parameters and form bodies (`RequestParameters.query(encoding:)`,
/// `.form(encoding:)`), over loopback: what the echo route receives for each `FormEncoder` option.
final class FormEncoderTests: LoopbackTestCase {
    /// The parts of the echo these tests read.
    private struct Received: Decodable, Sendable {
        let target: String
        let query: [[String]]
        let body: String?
        let form: [String: JSONValue]?
        let headers: [String: String]
    }

    private struct Send: APIRequest {
        typealias Response = Received
        var method: HTTPMethod = .get
        var parameters: RequestParameters
        var path: RequestPath { "/echo" }
    }

    private func send(
        _ parameters: RequestParameters, method: HTTPMethod = .get, client: APIClient? = nil
    ) throws
        -> Received
    {
        try XCTUnwrap(sendAndWait(Send(method: method, parameters: parameters), client: client)).get()
    }

    /// The query as it arrived, without the path: percent-encoded as sent.
    private func rawQuery(_ received: Received) -> String {
        String(received.target.drop { $0 != "?" }.dropFirst())
    }

    /// The decoded query as `name=value&...`, for reading.
    private func decoded(_ received: Received) -> String {
        received.query.map { $0.joined(separator: "=") }.joined(separator: "&")
    }

    private struct Owner: Encodable, Sendable {
        let name: String
        let team: String?
    }

    private struct Filter: Encodable, Sendable {
        var query = "swift ui"
        var page = 2
        var open = true
        var owner = Owner(name: "Ada", team: nil)
        var tags = ["bug", "ui"]
        var limit: Int?

        enum CodingKeys: String, CodingKey {
            case query = "q", page, open, owner, tags, limit
        }
    }

    func testThatAValueIsWrittenInItsOrderWithNestedFieldsInBrackets() throws {
        let received = try send(.query(encoding: Filter()))
        XCTAssertEqual(decoded(received), "q=swift ui&page=2&open=true&owner[name]=Ada&tags=bug&tags=ui")
        XCTAssertEqual(
            rawQuery(received), "q=swift%20ui&page=2&open=true&owner%5Bname%5D=Ada&tags=bug&tags=ui")
    }

    func testThatListsFollowTheClientsArrayEncodingUnlessTheEncoderSays() throws {
        let brackets = makeClient { $0.arrayEncoding = .brackets }
        let filter = Filter()
        XCTAssertTrue(decoded(try send(.query(encoding: filter), client: brackets)).hasSuffix("&tags[]=bug&tags[]=ui"))
        let expected: [(FormEncoder.ArrayStyle, String)] = [
            (.repeatedKey, "&tags=bug&tags=ui"), (.brackets, "&tags[]=bug&tags[]=ui"),
            (.commaSeparated, "&tags=bug,ui"), (.indexInBrackets, "&tags[0]=bug&tags[1]=ui"),
        ]
        for (style, suffix) in expected {
            let received = try send(
                .query(encoding: filter, encoder: FormEncoder(arrayEncoding: style)), client: brackets)
            XCTAssertTrue(decoded(received).hasSuffix(suffix), "\(style): \(decoded(received))")
        }
    }

    private struct LineItem: Encodable, Sendable {
        let id: Int
        let options: [String: String]
    }

    private struct Order: Encodable, Sendable {
        let items: [LineItem]
        let matrix: [[Int]]
    }

    private static let order = Order(
        items: [LineItem(id: 1, options: ["size": "L", "color": "red"]), LineItem(id: 2, options: [:])],
        matrix: [[1, 2], [3]])

    func testThatIndexInBracketsWritesListsOfKeyedValuesAndListsOfLists() throws {
        let received = try send(.query(encoding: Self.order, encoder: FormEncoder(arrayEncoding: .indexInBrackets)))
        // A Dictionary is written in the order of its keys; an empty one is left out.
        XCTAssertEqual(
            decoded(received),
            "items[0][id]=1&items[0][options][color]=red&items[0][options][size]=L&items[1][id]=2"
                + "&matrix[0][0]=1&matrix[0][1]=2&matrix[1][0]=3")
        XCTAssertTrue(rawQuery(received).hasPrefix("items%5B0%5D%5Bid%5D=1&"), rawQuery(received))
    }

    func testThatBracketsWriteListsOfKeyedValuesWithEmptyBrackets() throws {
        let items = ["items": [LineItem(id: 1, options: ["size": "L"]), LineItem(id: 2, options: [:])]]
        let received = try send(.query(encoding: items, encoder: FormEncoder(arrayEncoding: .brackets)))
        XCTAssertEqual(decoded(received), "items[][id]=1&items[][options][size]=L&items[][id]=2")
    }

    func testThatNilIsLeftOutOrWrittenEmpty() throws {
        struct Profile: Encodable, Sendable {
            let name: String
            let nickname: String?
            let age: Int?
            let address: Owner?
            let aliases: [String?]
        }
        let profile = Profile(name: "Ada", nickname: nil, age: nil, address: nil, aliases: ["a", nil, "b"])
        XCTAssertEqual(decoded(try send(.query(encoding: profile))), "name=Ada&aliases=a&aliases=b")
        let empty = FormEncoder(nilEncoding: .empty)
        XCTAssertEqual(
            decoded(try send(.query(encoding: profile, encoder: empty))),
            "name=Ada&nickname=&age=&address=&aliases=a&aliases=&aliases=b")
        let indexed = FormEncoder(arrayEncoding: .indexInBrackets, nilEncoding: .empty)
        XCTAssertTrue(
            decoded(try send(.query(encoding: profile, encoder: indexed))).hasSuffix("aliases[1]=&aliases[2]=b"))
        // A nil inside a Dictionary and a nested optional that is set.
        let nested: [String: Owner?] = ["a": Owner(name: "x", team: nil), "b": nil]
        XCTAssertEqual(decoded(try send(.query(encoding: nested, encoder: empty))), "a[name]=x&a[team]=&b=")
    }

    func testThatDatesFollowTheStrategy() throws {
        struct Window: Encodable, Sendable {
            let from: Date
            let until: Date
        }
        let window = Window(from: Date(timeIntervalSince1970: 1_700_000_000), until: Date(timeIntervalSince1970: 1.5))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let expected: [(FormEncoder.DateEncoding, String)] = [
            (.secondsSince1970, "from=1700000000&until=1.5"),
            (.millisecondsSince1970, "from=1700000000000&until=1500"),
            (.iso8601, "from=2023-11-14T22:13:20Z&until=1970-01-01T00:00:01Z"),
            (.formatted(formatter), "from=2023-11-14&until=1970-01-01"),
        ]
        for (strategy, query) in expected {
            let received = try send(.query(encoding: window, encoder: FormEncoder(dateEncoding: strategy)))
            XCTAssertEqual(decoded(received), query, "\(strategy)")
        }
        XCTAssertEqual(
            decoded(try send(.query(encoding: window))), "from=2023-11-14T22:13:20Z&until=1970-01-01T00:00:01Z")
    }

    func testThatBoolsAreLiteralOrNumeric() throws {
        let flags = ["dry": [true, false]]
        XCTAssertEqual(decoded(try send(.query(encoding: flags))), "dry=true&dry=false")
        XCTAssertEqual(
            decoded(try send(.query(encoding: flags, encoder: FormEncoder(boolEncoding: .numeric)))), "dry=1&dry=0")
    }

    func testThatKeysConvertToSnakeCaseButDictionaryKeysStay() throws {
        struct Search: Encodable, Sendable {
            let createdAfter: Int
            let userID: String
            let ownerInfo: [String: String]
            let sortOrder: Owner
        }
        let search = Search(
            createdAfter: 1, userID: "u", ownerInfo: ["displayName": "Ada"], sortOrder: Owner(name: "n", team: "t"))
        let snake = FormEncoder(keyEncoding: .convertToSnakeCase)
        XCTAssertEqual(
            decoded(try send(.query(encoding: search, encoder: snake))),
            "created_after=1&user_id=u&owner_info[displayName]=Ada&sort_order[name]=n&sort_order[team]=t")
        XCTAssertTrue(decoded(try send(.query(encoding: search))).hasPrefix("createdAfter=1&userID=u&ownerInfo"))
    }

    func testThatSpacesArePercentEscapedOrPlus() throws {
        let text = ["q": "a b+c", "name": "x y"]
        XCTAssertEqual(rawQuery(try send(.query(encoding: text))), "name=x%20y&q=a%20b%2Bc")
        let plus = FormEncoder(spaceEncoding: .plusReplaced)
        XCTAssertEqual(rawQuery(try send(.query(encoding: text, encoder: plus))), "name=x+y&q=a+b%2Bc")
        // In a form body the server reads `+` as a space.
        let form = try send(.form(encoding: text, encoder: plus), method: .post)
        XCTAssertEqual(form.body, "name=x+y&q=a+b%2Bc")
        XCTAssertEqual(form.form, ["name": "x y", "q": "a b+c"])
    }

    func testThatAllowedCharactersAreKeptButNeverSeparators() throws {
        let values = ["path": "/a/b:c?d", "tilde": "x~y", "pair": "a&b=c+d#e%f"]
        // The default: RFC 3986's unreserved characters only.
        XCTAssertEqual(
            rawQuery(try send(.query(encoding: values))),
            "pair=a%26b%3Dc%2Bd%23e%25f&path=%2Fa%2Fb%3Ac%3Fd&tilde=x~y")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/:?&=+#%[]")
        let received = try send(.query(encoding: values, encoder: FormEncoder(allowedCharacters: allowed)))
        // `/`, `:` and `?` are kept; `~` was not allowed; `&`, `=`, `+`, `#` and `%` never are.
        XCTAssertEqual(rawQuery(received), "pair=a%26b%3Dc%2Bd%23e%25f&path=/a/b:c?d&tilde=x%7Ey")
        XCTAssertEqual(decoded(received), "pair=a&b=c+d#e%f&path=/a/b:c?d&tilde=x~y")
        // Brackets in names stay encoded too.
        let nested = ["filter": ["state": "open"]]
        XCTAssertEqual(
            rawQuery(try send(.query(encoding: nested, encoder: FormEncoder(allowedCharacters: allowed)))),
            "filter%5Bstate%5D=open")
    }

    func testThatTheEncodersOptionsApplyToItsItemsOnly() throws {
        let plus = FormEncoder(spaceEncoding: .plusReplaced)
        let received = try send(.query(encoding: ["q": "a b"], encoder: plus).appendingQuery(["r": "c d"]))
        XCTAssertEqual(rawQuery(received), "q=a+b&r=c%20d")
    }

    func testThatAFormBodyIsWrittenFromAValueAndTakesCommonParameters() throws {
        let client = makeClient {
            $0.commonParameters = ["v": "3"]
            $0.commonParameterPlacement = .body
        }
        let signup = Owner(name: "Ada Lovelace", team: "R&D")
        let received = try send(.form(encoding: signup).appendingQuery(["dryRun": true]), method: .post, client: client)
        XCTAssertEqual(received.body, "name=Ada%20Lovelace&team=R%26D&v=3")
        XCTAssertEqual(received.form, ["name": "Ada Lovelace", "team": "R&D", "v": "3"])
        XCTAssertEqual(received.headers["content-type"], "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(decoded(received), "dryRun=true")
    }

    func testThatOtherValuesAreWrittenAsText() throws {
        enum Sort: String, Encodable, Sendable { case newest }
        struct Misc: Encodable, Sendable {
            let sort = Sort.newest
            let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            let blob = Data([0xFF, 0x00])
            let link = URL(string: "https://example.com/a?b=1")
            let price = Decimal(string: "12.50")
            let ratio = 0.25
            let big: UInt64 = 18_446_744_073_709_551_615
        }
        XCTAssertEqual(
            decoded(try send(.query(encoding: Misc()))),
            "sort=newest&id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F&blob=/wA=&link=https://example.com/a?b=1"
                + "&price=12.5&ratio=0.25&big=18446744073709551615")
    }
}
