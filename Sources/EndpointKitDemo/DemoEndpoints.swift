import EndpointKit
import EndpointKitStubs
import Foundation

// Endpoints of the demo, in both styles. Each works against the embedded server and httpbin.

/// What `/get` answers.
struct Args: Decodable, Sendable {
    let args: [String: JSONValue]
}

/// Struct style: a GET with query parameters, three lines of definition.
struct SearchRequest: APIRequest {
    typealias Response = Args
    let term: String
    var path: RequestPath { "/get" }
    var parameters: RequestParameters { ["q": .string(term), "tag": ["swift", "linux"]] }
}

/// Subclass style: a status endpoint, as YTKNetwork-era app code would declare it.
final class StatusRequest: BaseRequest<Empty> {
    let code: Int
    nonisolated init(code: Int) {
        self.code = code
    }
    override var path: RequestPath { "/status/\(code)" }
}

/// A request whose server stays silent longer than the request allows.
struct SlowRequest: APIRequest {
    typealias Response = JSONValue
    var path: RequestPath { "/delay/3" }
    var idleTimeout: TimeInterval? { 1 }
}

/// An account, the payload inside `{"status":0,"data":{...}}`.
struct Account: Decodable, Sendable {
    let id: Int
    let owner: String
    @Lenient var balance: Double
}

/// A POST whose body the server echoes back under `json`, so an envelope can be demonstrated on
/// any httpbin: `{"json":{"status":0,"data":{...}}}`.
struct TransferRequest: APIRequest {
    typealias Response = Account
    let reply: JSONValue
    var method: HTTPMethod { .post }
    var path: RequestPath { "/anything" }
    var parameters: RequestParameters { .json(reply) }
    var envelope: (any ResponseEnvelope)? {
        KeyPathEnvelope(status: "json.status", success: [0], payload: "json.data", payloadStringIsFailureMessage: true)
    }
}

/// The search endpoint's example answer, declared next to it (Moya's `sampleData`): the demo's
/// last step and the tests answer from it with no network.
extension SearchRequest: SampleResponseProviding {
    var sampleResponse: StubResponse { .json(#"{"args":{"q":"sample","tag":["offline"]}}"#) }
}
