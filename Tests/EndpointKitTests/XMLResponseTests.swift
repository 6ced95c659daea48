import EndpointKit
import EndpointKitTestServer
import EndpointKitXML
import Foundation
import XCTest

/// XML bodies to a tree, a dictionary and `Decodable` models, over loopback.
final class XMLResponseTests: LoopbackTestCase {
    struct Forecast: Decodable, Sendable, Equatable {
        struct Day: Decodable, Sendable, Equatable {
            let date: String
            let high: Int
            let rain: Bool
        }
        let city: String
        let updated: Double
        let day: [Day]
        let tags: [String]
        let note: String?
    }

    struct GetForecast: XMLResponseRequest {
        typealias Response = Forecast
        var path: RequestPath { "/forecast.xml" }
    }

    struct GetTree: XMLResponseRequest {
        typealias Response = XMLTree
        var path: RequestPath { "/forecast.xml" }
    }

    private let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <forecast city="Zürich" updated="1700000000.5">
          <day date="2026-11-30"><high>7</high><rain>true</rain></day>
          <day date="2026-12-01"><high>4</high><rain>0</rain></day>
          <tags><tag>cold</tag><tag>windy</tag></tags>
          <note/>
        </forecast>
        """

    func testThatAnXMLBodyDecodesIntoAModel() async throws {
        server.route("/forecast.xml") { [document] _ in .text(document, contentType: "application/xml") }
        let forecast = try await client.value(for: GetForecast())
        XCTAssertEqual(forecast.city, "Zürich")
        XCTAssertEqual(forecast.updated, 1_700_000_000.5)
        XCTAssertEqual(forecast.day.map(\.high), [7, 4])
        XCTAssertEqual(forecast.day.map(\.rain), [true, false])
        XCTAssertEqual(forecast.tags, ["cold", "windy"])
        XCTAssertNil(forecast.note)
    }

    func testThatASingleElementIsAnArrayOfOne() throws {
        let xml = #"<forecast city="x" updated="1"><day date="d"><high>1</high><rain>no</rain></day><tags/></forecast>"#
        let forecast = try XMLBodyDecoder().decode(Forecast.self, from: Data(xml.utf8))
        XCTAssertEqual(forecast.day.count, 1)
        XCTAssertEqual(forecast.tags, [])
    }

    func testThatTheTreeAndDictionaryAreAvailable() async throws {
        server.route("/forecast.xml") { [document] _ in .text(document, contentType: "text/xml") }
        let tree = try await client.value(for: GetTree())
        XCTAssertEqual(tree.children(named: "day").count, 2)
        XCTAssertEqual(tree.child(named: "tags")?.children.map(\.text), ["cold", "windy"])
        let dictionary = tree.dictionary["forecast"] as? [String: Any]
        XCTAssertEqual(dictionary?["city"] as? String, "Zürich")
        XCTAssertEqual((dictionary?["day"] as? [Any])?.count, 2)
    }

    func testThatMalformedXMLIsADecodingFailureNamingTheLine() async {
        server.route("/forecast.xml") { _ in .text("<forecast>\n<day></forecast>", contentType: "application/xml") }
        let result = await client.send(GetForecast())
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .decodingFailed)
        XCTAssertTrue(error.message.contains("line"), error.message)
    }

    func testThatAWrongTypeIsADecodingFailure() async {
        server.route("/forecast.xml") { _ in
            .text(#"<forecast city="x" updated="soon"><tags/></forecast>"#, contentType: "application/xml")
        }
        let result = await client.send(GetForecast())
        XCTAssertEqual(result.transportReason, .decodingFailed)
    }
}
