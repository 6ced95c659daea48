import EndpointKit
import EndpointKitTesting

/// Struct style: search articles, one page at a time.
struct SearchArticles: APIRequest {
    typealias Response = [Article]
    let term: String
    var page = 1
    var path: RequestPath { "/articles/search" }
    var parameters: RequestParameters { .query(["q": .string(term), "page": QueryValue(page), "per_page": 20]) }
}

// The example answers, declared next to the endpoint (Moya's sampleData).
extension SearchArticles: SampleResponseProviding {
    var sampleResponse: StubResponse {
        .json(#"[{"id":1,"title":"Swift on Linux","likes":"42"},{"id":2,"title":"Testing endpoints","likes":7}]"#)
    }
    var sampleResponses: [String: StubResponse] {
        ["empty": .json("[]"), "rateLimited": .json(#"{"error":"slow down"}"#, status: 429)]
    }
}
