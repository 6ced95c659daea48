import Foundation

/// The signed-in reader.
struct Profile: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
    /// The article the front page features for this reader.
    let featuredArticleID: Int
}

/// One article of the feed.
struct Article: Decodable, Sendable, Equatable {
    let id: Int
    let title: String
}

/// One page of the feed: `{"items":[...],"hasMore":true}`.
struct ArticlePage: Decodable, Sendable {
    let items: [Article]
    let hasMore: Bool
}

/// A comment the reader writes, sent as JSON.
struct NewComment: Encodable, Sendable {
    let articleID: Int
    let text: String
}

/// One breaking headline, the JSON data of a server-sent event.
struct Headline: Decodable, Sendable {
    let title: String
}
