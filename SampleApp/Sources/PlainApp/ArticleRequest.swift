import EndpointKit

/// An article, as a request object in the YTKNetwork style: the screen keeps one, gives it a
/// delegate and starts it again whenever it wants the article fresh.
///
/// `nonisolated`, so that `articleID` can be read anywhere (a test's stub matcher, a log line),
/// not only on the main actor where `BaseRequest` lives.
nonisolated final class ArticleRequest: BaseRequest<Article> {
    let articleID: Int

    init(articleID: Int) {
        self.articleID = articleID
    }

    override var path: RequestPath { "/articles/\(articleID)" }
    override var tag: String? { "article" }
}
