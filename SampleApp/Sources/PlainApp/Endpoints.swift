import EndpointKit
import Foundation

/// The signed-in reader's profile, kept in the cache for a minute ("show what we have, then
/// refresh").
struct GetProfile: APIRequest {
    typealias Response = Profile
    var path: RequestPath { "/me" }
    var cachePolicy: CachePolicy? {
        var policy = CachePolicy(lifetime: 60)
        // Signed by TokenInterceptor, so the cache would not store it otherwise; it is then kept
        // under the token's identity (YTKNetwork's cacheSensitiveData).
        policy.cachesSensitiveData = true
        return policy
    }
}

/// One article.
struct GetArticle: APIRequest {
    typealias Response = Article
    let id: Int
    var path: RequestPath { "/articles/\(id)" }
}

/// An article's cover image, as raw bytes (a download to show progress for).
struct DownloadCover: APIRequest {
    typealias Response = Data
    let articleID: Int
    var path: RequestPath { "/articles/\(articleID)/cover" }
}

/// Posts a comment; the server answers with the article it is on.
struct PostComment: APIRequest {
    typealias Response = Article
    let comment: NewComment
    var method: HTTPMethod { .post }
    var path: RequestPath { "/comments" }
    var parameters: RequestParameters { .json(comment) }
}
