import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The sample API used across the tests: models and endpoints defined once.

struct Item: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct User: Decodable, Sendable, Equatable {
    let identifier: Int
    let name: String
    let details: String?

    enum CodingKeys: String, CodingKey {
        case identifier = "id"
        case name
        case details = "description"
    }
}

/// What the test server's `/echo` route answers.
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let query: [[String]]
    let headers: [String: String]
    let body: String?
    let json: JSONValue?
    let form: [String: String]?
}

struct EchoRequest: APIRequest {
    typealias Response = Echo
    var method: HTTPMethod = .get
    var parameters: RequestParameters = .none
    var headers: HTTPHeaders = HTTPHeaders.empty
    var path: RequestPath { "/echo" }
}

struct GetItems: APIRequest {
    typealias Response = [Item]
    var path: RequestPath = "/items"
    var envelope: (any ResponseEnvelope)?
    var totalTimeout: TimeInterval?
}

struct GetItem: APIRequest {
    typealias Response = Item
    var path: RequestPath = "/item"
    var totalTimeout: TimeInterval?
    var validation: ResponseValidation?
}

/// A subclass-style endpoint, as app code written in the YTKNetwork style would declare it.
nonisolated final class ItemRequest: BaseRequest<Item> {
    let itemID: Int
    init(itemID: Int) {
        self.itemID = itemID
    }
    override var path: RequestPath { "/items/\(itemID)" }
}

/// ``EchoRequest`` as a subclass, for the request's own delegate.
nonisolated final class EchoSubclass: BaseRequest<Echo> {
    override var path: RequestPath { "/echo" }
}

func makeHTTPResponse(status: Int = 200, headers: [String: String] = [:]) -> HTTPURLResponse {
    HTTPURLResponse(
        url: URL(string: "http://127.0.0.1/test")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
}

func makeContext(
    _ json: String, envelope: any ResponseEnvelope = NoEnvelope(), decoder: JSONDecoder = JSONDecoder()
)
    -> DecodingContext
{
    DecodingContext(
        data: Data(json.utf8), response: makeHTTPResponse(),
        request: URLRequest(url: URL(string: "http://127.0.0.1/test")!),
        decoder: decoder, envelope: envelope)
}
