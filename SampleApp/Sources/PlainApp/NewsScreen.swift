import EndpointKit
import EndpointKitComposition
import EndpointKitStreaming
import Foundation

/// The front page of the news app: the reader's name as its title, the latest articles, the
/// archive, a cover being downloaded and a ticker of breaking headlines.
///
/// A view controller without UIKit: what it would show is in plain stored properties, which it
/// writes from every kind of callback as they come (they all run on the main actor). `events`
/// keeps one line per callback, in order, as a log of what the screen was told.
@MainActor
final class NewsScreen {
    /// The navigation title: the reader's name, or the title of the article opened.
    var title = ""
    /// The latest articles' titles (paged with closures).
    var rows: [String] = []
    /// The archive's titles (paged through the paginator's delegate).
    var archiveRows: [String] = []
    /// How far the cover download is, from 0 to 1.
    var progress = 0.0
    /// Whether the spinner shows.
    var isLoading = false
    /// What the screen was told, one line per callback.
    var events: [String] = []
    /// The last failure shown to the reader.
    var errorMessage: String?

    let client: APIClient
    /// The latest articles, paged with closures.
    let latest: Paginator<ListArticles>
    /// The archive, paged by telling this screen (``PaginatorDelegate``).
    let archive: Paginator<ListArticles>
    /// The article followed with this screen as its delegate, YTKNetwork style.
    private(set) var followedArticle: ArticleRequest?
    /// The batch of today's picks, to tell it apart in the batch delegate.
    var picksBatch: RequestHandle?
    private var ticker: RequestHandle?

    init(client: APIClient) {
        self.client = client
        latest = Paginator(client: client, request: ListArticles())
        archive = Paginator(client: client, request: ListArticles(section: "archive"))
        archive.delegate = self
    }

    func log(_ event: String) {
        events.append(event)
    }

    /// Shows what went wrong, unless the load was cancelled on purpose.
    func show(_ failure: APIFailure?) {
        switch failure {
        case nil: return
        case .server(let failure)?: errorMessage = failure.message ?? "The server said \(failure.statusCode)."
        case .transport(let error)?:
            guard error.reason != .cancelled else { return }
            errorMessage = error.message
        }
        log("failed: \(errorMessage ?? "")")
    }

    // MARK: - One request

    /// The reader's name as the title: the closure form.
    func loadProfile() {
        isLoading = true
        client.send(GetProfile()) { result in
            self.isLoading = false
            switch result {
            case .success(let profile, _):
                self.title = profile.name
                self.log("profile: \(profile.name)")
            case .serverFailure(let failure): self.show(.server(failure))
            case .transportError(let error): self.show(.transport(error))
            }
        }
    }

    /// Downloads an article's cover, moving the progress bar as it comes.
    func downloadCover(of articleID: Int) {
        progress = 0
        client.send(
            DownloadCover(articleID: articleID),
            progress: { progress in self.progress = progress.fractionCompleted ?? 0 }
        ) { result in
            if let failure = result.failure { return self.show(failure) }
            self.log("cover: \(result.value?.count ?? 0) bytes")
        }
    }

    /// Shows the profile kept in the cache at once, then the server's.
    func showProfileThenRefresh() {
        client.send(
            GetProfile(),
            cached: { result in
                guard let profile = result.value else { return }
                self.title = profile.name
                self.log("cached profile: \(profile.name)")
            },
            completion: { result in
                guard let profile = result.value else { return self.show(result.failure) }
                self.title = profile.name
                self.log("fresh profile: \(profile.name)")
            })
    }

    /// Opens an article through a request object, with a completion.
    func openArticle(_ id: Int) {
        ArticleRequest(articleID: id).start(with: client) { result in
            guard let article = result.value else { return self.show(result.failure) }
            self.title = article.title
            self.log("opened: \(article.title)")
        }
    }

    /// Follows an article: a request object kept by the screen, which is its delegate; every
    /// `start` tells the delegate again.
    func followArticle(_ id: Int) {
        let request = followedArticle ?? ArticleRequest(articleID: id)
        followedArticle = request
        request.delegate = self
        request.start(with: client)
    }

    /// The profile again, told to this screen as the delegate of a struct endpoint.
    func reloadProfile() {
        client.send(GetProfile(), delegate: self)
    }

    // MARK: - Several requests

    /// The profile and the first article together: one closure with both results.
    func loadFrontPage() {
        isLoading = true
        client.send(RequestBatch(GetProfile(), GetArticle(id: 1), policy: .failFast)) { batch in
            self.isLoading = false
            if let failure = batch.failure { return self.show(failure.failure) }
            let (profile, article) = batch.results
            guard let profile = profile.value, let article = article.value else { return }
            self.title = profile.name
            self.rows = [article.title]
            self.log("front page: \(profile.name), \(article.title)")
        }
    }

    /// Today's picks, told to this screen as the batch's delegate.
    func loadPicks(_ ids: [Int]) {
        picksBatch = client.send(RequestBatch(ids.map { GetArticle(id: $0) }), delegate: self)
    }

    /// The reader's featured article: the profile first, then the article it names.
    func openFeaturedArticle() {
        let chain = RequestChain(GetProfile()).then { profile in GetArticle(id: profile.featuredArticleID) }
        client.send(chain) { result in
            guard let article = result.value else { return self.show(result.failure) }
            self.title = article.title
            self.log("featured: \(article.title)")
        }
    }

    // MARK: - Lists and streams

    /// The first page of the latest articles.
    func loadLatest() {
        latest.loadFirstPage { result in
            if let failure = result.failure { return self.show(failure) }
            self.rows = self.latest.snapshot.items.map(\.title)
            self.log("latest: \(self.rows.count) rows")
        }
    }

    /// The next page of the latest articles, when the list scrolls to its end.
    func loadMoreLatest() {
        latest.loadNextPage { result in
            guard let result else { return self.log("latest: end") }
            if let failure = result.failure { return self.show(failure) }
            self.rows = self.latest.snapshot.items.map(\.title)
            self.log("latest: \(self.rows.count) rows")
        }
    }

    /// The archive's first page; the delegate hears it.
    func loadArchive() {
        archive.loadFirstPage()
    }

    /// The archive's next page, if there is one; the delegate hears it.
    func loadMoreArchive() {
        archive.loadNextPage()
    }

    /// Breaking headlines into the event log, with closures.
    func startTicker() {
        ticker?.cancel()
        ticker = client.stream(
            LiveHeadlines(),
            onElement: { [weak self] headline in self?.log("live: \(headline.title)") },
            completion: { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let summary, _): self.log("live ended at \(summary.lastEventID)")
                case .serverFailure(let failure) where LiveHeadlines.isEndOfHeadlines(failure): self.log("live ended")
                case .serverFailure(let failure): self.show(.server(failure))
                case .transportError(let error): self.show(.transport(error))
                }
            })
    }

    /// Breaking headlines told to this screen as the stream's delegate.
    func followTicker() {
        ticker?.cancel()
        ticker = client.stream(LiveHeadlines(), delegate: self)
    }

    /// Stops the ticker.
    func stopTicker() {
        ticker?.cancel()
        ticker = nil
    }
}
