// The complete example of Docs/Migration/FromGenericNetworkService.md (and its Chinese twin), copied verbatim below its
// imports (keep them in sync: when the guide's example changes, copy it here), then run against
// the loopback server.

import EndpointKit
import EndpointKitTestServer
import EndpointKitXML
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

struct Member: nonisolated Decodable, Sendable {
    let id: Int
    let nickname: String
    @Lenient var level: Int
}

/// Where the app keeps its JWT (the keychain, in a real app).
actor TokenStore {
    static let shared = TokenStore()
    private(set) var jwt: String?
    func save(_ token: String?) { jwt = token }
}

/// One endpoint whose body is encrypted: the endpoint decrypts it before decoding.
struct Wallet: APIRequest {
    nonisolated struct Balance: Decodable, Sendable { let cents: Int }
    typealias Response = Balance
    var path: RequestPath { "/wallet" }
    var cachePolicy: CachePolicy? { CachePolicy(mode: .ignoreCache) }  // always asks the server
    func transformBody(_ data: Data, metadata: ResponseMetadata) throws -> Data {
        Data(data.reversed())  // stands in for your decryption
    }
}

/// The one XML endpoint, decoded into a model like the JSON ones.
struct Rates: XMLResponseRequest {
    nonisolated struct RateTable: Decodable, Sendable {
        let currency: [String]
    }
    typealias Response = RateTable
    var path: RequestPath { "/rates.xml" }
}

struct NetworkService {
    static let shared = NetworkService(baseURL: URL(string: "https://app.example.com/api"))
    let client: APIClient

    init(baseURL: URL?) {
        client = APIClient(baseURL: baseURL) {
            $0.interceptors = [
                Adapter { request, _ in
                    var request: URLRequest = request
                    if let jwt = await TokenStore.shared.jwt {  // read when each request is sent
                        request.setValue("Bearer \(jwt)", forHTTPHeaderField: "Authorization")
                    }
                    return request
                }
            ]
            $0.cache = ResponseCache(directory: nil)  // memory only; a folder for disk
        }
    }

    /// The generic call, for one model or an array of them.
    func get<T: Decodable & Sendable>(_ path: RequestPath, query: QueryItems = [:]) async throws -> T {
        try await client.value(for: Endpoint<T>(path: path, parameters: .query(query)))
    }
}

/// What the profile screen shows.
func loadProfile(from service: NetworkService = .shared) async throws -> String {
    let me: Member = try await service.get("/me")
    let friends: [Member] = try await service.get("/me/friends", query: ["limit": 50])
    let balance = try await service.client.value(for: Wallet())
    let rates = try await service.client.value(for: Rates())
    return "\(me.nickname) L\(me.level), \(friends.count) friends, \(balance.cents) cents, \(rates.currency)"
}

// MARK: - Tests

final class FromGenericNetworkServiceMigrationTests: LoopbackTestCase {
    func testThatTheServiceSendsTheJWTDecryptsAndDecodesXML() async throws {
        // GIVEN a backend with JSON, an encrypted (reversed) body and XML
        let inbox = Inbox()
        server.route("/api/me") { request in
            inbox.record(request)
            return .json(string: #"{"id":1,"nickname":"ada","level":"3"}"#)
        }
        server.route("/api/me/friends") { request in
            inbox.record(request)
            return .json(string: #"[{"id":2,"nickname":"bo","level":1}]"#)
        }
        server.route("/api/wallet") { _ in
            .response(
                status: 200, headers: [("Content-Type", "application/json")],
                body: Data(Data(#"{"cents":42}"#.utf8).reversed()))
        }
        server.route("/api/rates.xml") { _ in
            .text("<rates><currency>EUR</currency><currency>USD</currency></rates>", contentType: "application/xml")
        }
        await TokenStore.shared.save("jwt-1")
        let service = NetworkService(baseURL: server.url("/api"))

        // WHEN the profile loads
        let shown = try await loadProfile(from: service)
        await TokenStore.shared.save(nil)

        // THEN every value arrived, and each request carried the token read when it was sent
        XCTAssertEqual(shown, #"ada L3, 1 friends, 42 cents, ["EUR", "USD"]"#)
        XCTAssertEqual(inbox.requests.map { $0.header("Authorization") }, ["Bearer jwt-1", "Bearer jwt-1"])
        XCTAssertEqual(inbox.requests.last?.queryValue("limit"), "50")
    }
}
