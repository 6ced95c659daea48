// The complete example of Docs/Migration/FromAlamofire.md, copied verbatim below its imports (keep
// the two in sync: when the guide's example changes, copy it here), then run against the loopback
// server: a 401, one refresh, the order placed with the new token.

import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

nonisolated struct Order: Decodable, Sendable {
    let id: Int
    let status: String
    let placedAt: Date
}

nonisolated struct NewOrder: Encodable, Sendable {
    let productID: Int
    let quantity: Int
}

nonisolated struct APIErrorBody: Decodable {
    let error: String
}

// Each call site's parameters, encoder, headers and response type, declared once.
struct GetOrder: APIRequest {
    typealias Response = Order
    let id: Int
    var path: RequestPath { "/orders/\(id)" }
}

struct SearchOrders: APIRequest {
    typealias Response = [Order]
    let statuses: [String]
    var path: RequestPath { "/orders" }
    var parameters: RequestParameters { .query(["status": .array(statuses)]) }  // status[]=..., see below
}

struct PlaceOrder: APIRequest {
    typealias Response = Order
    let order: NewOrder
    let idempotencyKey = UUID().uuidString  // one per order, kept on retries
    var method: HTTPMethod { .post }
    var path: RequestPath { "/orders" }
    var parameters: RequestParameters { .json(order) }  // JSONParameterEncoder
    var headers: HTTPHeaders { ["Idempotency-Key": idempotencyKey] }
}

struct Credential: Sendable {
    let accessToken: String
    let refreshToken: String
}

struct Refresh: APIRequest {
    nonisolated struct Tokens: Decodable, Sendable {  // {"access_token":..,"refresh_token":..}
        let accessToken: String
        let refreshToken: String
    }
    typealias Response = Tokens
    let refreshToken: String
    var method: HTTPMethod { .post }
    var path: RequestPath { "/oauth/token" }
    var parameters: RequestParameters {
        .form(["grant_type": "refresh_token", "refresh_token": .string(refreshToken)])
    }
}

enum Hosts {
    static let shop = URL(string: "https://shop.example.com/api")
    static let auth = URL(string: "https://auth.example.com")
}

func makeSession(login: Credential?, shop: URL? = Hosts.shop, auth: URL? = Hosts.auth) -> APIClient {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    let authClient = APIClient(baseURL: auth) { $0.decoder = decoder }

    let auth = AuthenticationInterceptor<Credential>(
        credential: login,
        apply: { credential, request in
            request.setValue("Bearer \(credential.accessToken)", forHTTPHeaderField: "Authorization")
        },
        refresh: { old in  // once, however many requests got a 401
            let tokens = try await authClient.value(for: Refresh(refreshToken: old?.refreshToken ?? ""))
            return Credential(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        })

    return APIClient(baseURL: shop) {
        $0.decoder = decoder
        $0.defaultHeaders["Accept"] = "application/json"
        // `.validate()`: 2xx, and the content type the Accept header asked for.
        $0.validation = ResponseValidation(acceptableContentTypes: ["application/json"])
        $0.arrayEncoding = .brackets  // Alamofire's status[]=a&status[]=b
        $0.interceptors = [auth]
        $0.retrier = RetryPolicy(maxRetries: 2)  // idempotent requests only
        $0.plugins = [LoggerPlugin(level: .info)]  // an EventMonitor
    }
}

/// Places one order and says what happened, as the checkout screen shows it.
func checkout(with client: APIClient) async -> String {
    switch await client.send(PlaceOrder(order: NewOrder(productID: 42, quantity: 1))) {
    case .success(let order, _):
        return "order \(order.id) \(order.status)"
    case .serverFailure(let failure):  // 4xx/5xx: the body is kept
        let reason = (try? failure.decodeBody(as: APIErrorBody.self).error) ?? failure.bodyText
        return "refused (\(failure.statusCode)): \(reason)"
    case .transportError(let error) where error.reason == .timedOut:
        return "timed out; safe to retry with the same Idempotency-Key"
    case .transportError(let error):
        return "no answer: \(error.message)"
    }
}

// MARK: - Tests
final class FromAlamofireMigrationTests: LoopbackTestCase {
    private let order = #"{"id":7,"status":"placed","placed_at":"2024-05-01T10:00:00Z"}"#

    func testThatCheckoutRefreshesTheTokenOnceAndPlacesTheOrder() async throws {
        // GIVEN a shop that accepts only the refreshed token, and an auth server that refreshes it
        let orders = Inbox()
        let tokens = Inbox()
        let order = self.order
        server.route("/api/orders") { request in
            orders.record(request)
            guard request.header("Authorization") == "Bearer new" else {
                return .json(string: #"{"error":"token expired"}"#, status: 401)
            }
            return .json(string: order, status: 201)
        }
        server.route("/oauth/token") { request in
            tokens.record(request)
            return .json(string: #"{"access_token":"new","refresh_token":"r2"}"#)
        }
        let client = makeSession(
            login: Credential(accessToken: "old", refreshToken: "r1"), shop: server.url("/api"), auth: server.baseURL)

        // WHEN the example's checkout runs
        let message = await checkout(with: client)

        // THEN the order came back decoded (snake case, ISO 8601), after one refresh
        XCTAssertEqual(message, "order 7 placed")
        XCTAssertEqual(tokens.requests.count, 1)
        let form = tokens.requests.first?.formFields.map { "\($0.name)=\($0.value)" }
        XCTAssertEqual(form, ["grant_type=refresh_token", "refresh_token=r1"])
        let sent = orders.requests
        XCTAssertEqual(sent.map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
        XCTAssertEqual(sent.map(\.method), ["POST", "POST"])
        XCTAssertNotNil(sent.first?.header("Idempotency-Key"))
        XCTAssertEqual(sent[0].header("Idempotency-Key"), sent[1].header("Idempotency-Key"), "kept on the retry")
        let body = try JSONSerialization.jsonObject(with: sent[1].body) as? [String: Int]
        XCTAssertEqual(body, ["productID": 42, "quantity": 1])
    }

    func testThatARefusalIsShownWithTheServersReason() async {
        // GIVEN a shop that refuses the order
        server.route("/api/orders") { _ in .json(string: #"{"error":"out of stock"}"#, status: 409) }
        let client = makeSession(
            login: Credential(accessToken: "a", refreshToken: "r"), shop: server.url("/api"), auth: server.baseURL)

        // WHEN checkout runs
        let message = await checkout(with: client)

        // THEN the error body was decoded from the ServerFailure
        XCTAssertEqual(message, "refused (409): out of stock")
    }

    /// "Behaviour that differs": arrays as Alamofire writes them, and `.validate()`'s content type.
    func testThatArraysGoWithBracketsAndAnUnexpectedContentTypeIsRefused() async throws {
        // GIVEN a shop answering JSON for the search and HTML for one order
        let searches = Inbox()
        let order = self.order
        server.route("/api/orders") { request in
            searches.record(request)
            return .json(string: "[\(order)]")
        }
        server.route("/api/orders/1") { _ in .text("<html>maintenance</html>", contentType: "text/html") }
        let client = makeSession(
            login: Credential(accessToken: "a", refreshToken: "r"), shop: server.url("/api"), auth: server.baseURL)

        // WHEN the search and the order are sent
        let found = try await client.value(for: SearchOrders(statuses: ["placed", "shipped"]))
        let html = await client.send(GetOrder(id: 1))

        // THEN the list went out as status[]=..., and the HTML is a transport error, not a decoding one
        XCTAssertEqual(found.map(\.id), [7])
        XCTAssertEqual(searches.requests.first?.queryValues("status[]"), ["placed", "shipped"])
        XCTAssertEqual(searches.requests.first?.header("Accept"), "application/json")
        XCTAssertEqual(html.transportReason, .unacceptableContentType("text/html"))
    }
}
