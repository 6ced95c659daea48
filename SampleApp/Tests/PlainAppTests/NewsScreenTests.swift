import EndpointKit
import SampleTestServer
import XCTest

@testable import PlainApp

/// The news screen against its backend over real HTTP: each test drives one callback form and
/// checks what the screen shows and what it was told, in order.
final class NewsScreenTests: XCTestCase {
    /// A screen whose client signs with `token`, aimed at a fresh backend stopped after the test.
    @MainActor
    private func makeScreen(
        token: String = NewsBackend.token, profileGate: DispatchSemaphore? = nil
    ) throws -> (NewsScreen, RequestLog) {
        let server = try NewsBackend.start(profileGate: profileGate)
        addTeardownBlock { server.stop() }
        let log = RequestLog()
        return (NewsScreen(client: NewsAPI.makeClient(baseURL: server.baseURL, token: token, log: log)), log)
    }

    @MainActor
    func testThatTheClosureShowsTheReadersNameAndThePluginLogsTheRequest() async throws {
        let (screen, log) = try makeScreen()

        screen.loadProfile()
        XCTAssertTrue(screen.isLoading)
        await waitUntil("the profile") { !screen.isLoading }

        XCTAssertEqual(screen.title, "Ada Lovelace")
        XCTAssertEqual(screen.events, ["profile: Ada Lovelace"])
        XCTAssertEqual(log.lines, ["GetProfile 200"])
    }

    @MainActor
    func testThatWithoutTheRightTokenTheScreenShowsTheServersMessage() async throws {
        let (screen, log) = try makeScreen(token: "expired")

        screen.loadProfile()
        await waitUntil("the failure") { !screen.isLoading }

        XCTAssertEqual(screen.title, "")
        XCTAssertEqual(screen.errorMessage, "Sign in again.")
        XCTAssertEqual(log.lines, ["GetProfile 401"])
    }

    @MainActor
    func testThatTheCoverDownloadMovesTheProgressBarToTheEnd() async throws {
        let (screen, _) = try makeScreen()

        screen.downloadCover(of: 2)
        await waitUntil("the cover") { !screen.events.isEmpty }

        XCTAssertEqual(screen.events, ["cover: \(NewsBackend.coverSize) bytes"])
        XCTAssertEqual(screen.progress, 1)
    }

    @MainActor
    func testThatTheCachedProfileShowsFirstThenTheServersAnswer() async throws {
        let profileGate = DispatchSemaphore(value: 1)  // the first profile passes, the refresh waits
        let (screen, log) = try makeScreen(profileGate: profileGate)
        screen.loadProfile()
        await waitUntil("the profile, stored in the cache") { !screen.isLoading }

        screen.showProfileThenRefresh()
        await waitUntil("the cached profile") { screen.events.count == 2 }
        profileGate.signal()
        await waitUntil("the fresh profile") { screen.events.count == 3 }

        XCTAssertEqual(
            screen.events,
            ["profile: Ada Lovelace", "cached profile: Ada Lovelace", "fresh profile: Ada Lovelace"])
        XCTAssertEqual(log.lines.sorted(), ["GetProfile 200", "GetProfile 200", "GetProfile 200 cached"])
    }

    @MainActor
    func testThatARequestObjectOpensAnArticleWithAClosureAndTellsItsDelegateOnEveryStart() async throws {
        let (screen, _) = try makeScreen()

        screen.openArticle(2)
        await waitUntil("the article") { screen.events.count == 1 }
        XCTAssertEqual(screen.title, "Article 2")

        screen.followArticle(4)
        await waitUntil("the followed article") { screen.events.count == 2 }
        screen.followArticle(4)
        await waitUntil("the followed article again") { screen.events.count == 3 }
        screen.reloadProfile()
        await waitUntil("the profile, as delegate") { screen.events.count == 4 }

        XCTAssertEqual(
            screen.events,
            ["opened: Article 2", "followed: Article 4", "followed: Article 4", "delegate profile: Ada Lovelace"])
        XCTAssertEqual(screen.followedArticle?.articleID, 4)
        XCTAssertEqual(screen.title, "Ada Lovelace")
    }

    @MainActor
    func testThatABatchFillsTheFrontPageAndAnotherTellsItsDelegateThePicks() async throws {
        let (screen, _) = try makeScreen()

        screen.loadFrontPage()
        await waitUntil("the front page") { !screen.isLoading }
        XCTAssertEqual(screen.title, "Ada Lovelace")
        XCTAssertEqual(screen.rows, ["Article 1"])

        screen.loadPicks([5, 6, 7])
        await waitUntil("the picks") { screen.events.count == 2 }

        XCTAssertEqual(screen.rows, ["Article 5", "Article 6", "Article 7"])
        XCTAssertEqual(screen.events, ["front page: Ada Lovelace, Article 1", "picks: 3"])
    }

    @MainActor
    func testThatTheChainOpensTheArticleTheProfileFeatures() async throws {
        let (screen, log) = try makeScreen()

        screen.openFeaturedArticle()
        await waitUntil("the featured article") { !screen.events.isEmpty }

        XCTAssertEqual(screen.title, "Article 3")
        XCTAssertEqual(screen.events, ["featured: Article 3"])
        XCTAssertEqual(log.lines, ["GetProfile 200", "GetArticle 200"])
    }

    @MainActor
    func testThatTheClosurePaginatorPagesTheLatestArticlesToTheEnd() async throws {
        let (screen, _) = try makeScreen()

        screen.loadLatest()
        await waitUntil("the first page") { screen.events.count == 1 }
        XCTAssertEqual(screen.rows, ["Latest 1", "Latest 2"])
        for count in 2...4 {
            screen.loadMoreLatest()
            await waitUntil("call \(count)") { screen.events.count == count }
        }

        XCTAssertEqual(screen.rows, (1...5).map { "Latest \($0)" })
        XCTAssertEqual(screen.events, ["latest: 2 rows", "latest: 4 rows", "latest: 5 rows", "latest: end"])
    }

    @MainActor
    func testThatThePaginatorDelegateHearsEveryArchivePageAndTheEnd() async throws {
        let (screen, _) = try makeScreen()

        screen.loadArchive()
        await waitUntil("the first page") { screen.events.count == 1 }
        screen.loadMoreArchive()
        await waitUntil("the second page") { screen.events.count == 2 }
        screen.loadMoreArchive()
        await waitUntil("the end") { screen.events.count == 3 }

        XCTAssertEqual(screen.archiveRows, ["Archived 1", "Archived 2", "Archived 3"])
        XCTAssertEqual(screen.events, ["archive page 1: 2 rows", "archive page 2: 3 rows", "archive: end"])
        XCTAssertTrue(screen.rows.isEmpty)
    }

    @MainActor
    func testThatTheTickerClosuresAndTheStreamDelegateHearEveryHeadlineThenTheEnd() async throws {
        let (screen, _) = try makeScreen()

        screen.startTicker()
        await waitUntil("the closures' stream to end") { screen.events.count == 3 }
        screen.followTicker()
        await waitUntil("the delegate's stream to end") { screen.events.count == 6 }

        XCTAssertEqual(
            screen.events,
            [
                "live: Markets open", "live: Rain expected", "live ended",
                "followed live: Markets open", "followed live: Rain expected", "followed live ended",
            ])
        XCTAssertNil(screen.errorMessage)
    }

    @MainActor
    func testThatTheAsyncFormsWriteTheScreenAfterEachAwait() async throws {
        let (screen, _) = try makeScreen()

        screen.refreshTitle()
        await waitUntil("the title") { screen.events.count == 1 }
        XCTAssertEqual(screen.title, "Ada Lovelace")

        screen.postComment("Well put", on: 2)
        XCTAssertFalse(screen.isLoading, "the Task has not run yet")
        await waitUntil("the comment") { screen.events.count == 2 }
        XCTAssertEqual(screen.title, "Article 2: Well put")
        XCTAssertFalse(screen.isLoading)

        screen.watchTicker()
        await waitUntil("the stream to end") { screen.events.count == 5 }
        XCTAssertEqual(
            screen.events,
            [
                "async profile: Ada Lovelace", "commented: Article 2: Well put", "async live: Markets open",
                "async live: Rain expected", "async live ended",
            ])
    }
}
