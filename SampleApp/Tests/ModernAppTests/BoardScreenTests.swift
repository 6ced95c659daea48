import EndpointKit
import SampleTestServer
import XCTest

@testable import ModernApp

/// The board against its backend over real HTTP: each test drives one callback form and checks
/// what the board shows and what it was told, in order.
final class BoardScreenTests: XCTestCase {
    /// A board whose client signs with `token`, aimed at a fresh backend stopped after the test.
    @MainActor
    private func makeBoard(
        token: String = BoardBackend.token, memberGate: DispatchSemaphore? = nil
    ) throws -> (BoardScreen, TrafficRecorder) {
        let server = try BoardBackend.start(memberGate: memberGate)
        addTeardownBlock { server.stop() }
        let recorder = TrafficRecorder()
        return (
            BoardScreen(client: BoardAPI.makeClient(baseURL: server.baseURL, token: token, recorder: recorder)),
            recorder
        )
    }

    @MainActor
    func testThatTheClosureShowsTheMembersNameAndThePluginRecordsTheRequest() async throws {
        let (board, recorder) = try makeBoard()

        board.loadMember()
        XCTAssertTrue(board.isLoading)
        await waitUntil("the member") { !board.isLoading }

        XCTAssertEqual(board.title, "Grace Hopper")
        XCTAssertEqual(board.events, ["member: Grace Hopper"])
        XCTAssertEqual(recorder.lines, ["GetMember 200"])
    }

    @MainActor
    func testThatAnExpiredSessionShowsTheServersMessage() async throws {
        let (board, recorder) = try makeBoard(token: "old")

        board.loadMember()
        await waitUntil("the failure") { !board.isLoading }

        XCTAssertEqual(board.title, "")
        XCTAssertEqual(board.errorMessage, "Session expired.")
        XCTAssertEqual(recorder.lines, ["GetMember 401"])
    }

    @MainActor
    func testThatTheAttachmentDownloadMovesTheProgressBarToTheEnd() async throws {
        let (board, _) = try makeBoard()

        board.downloadAttachment(of: 3)
        await waitUntil("the attachment") { !board.events.isEmpty }

        XCTAssertEqual(board.events, ["attachment: \(BoardBackend.attachmentSize) bytes"])
        XCTAssertEqual(board.progress, 1)
    }

    @MainActor
    func testThatTheCachedMemberShowsFirstThenTheServersAnswer() async throws {
        let memberGate = DispatchSemaphore(value: 1)  // the first member passes, the refresh waits
        let (board, _) = try makeBoard(memberGate: memberGate)
        board.loadMember()
        await waitUntil("the member, stored in the cache") { !board.isLoading }

        board.showMemberThenRefresh()
        await waitUntil("the cached member") { board.events.count == 2 }
        memberGate.signal()
        await waitUntil("the fresh member") { board.events.count == 3 }

        XCTAssertEqual(
            board.events, ["member: Grace Hopper", "cached member: Grace Hopper", "fresh member: Grace Hopper"])
    }

    @MainActor
    func testThatARequestObjectOpensATicketAndTellsItsDelegateOnEveryStart() async throws {
        let (board, _) = try makeBoard()

        board.openTicket(2)
        await waitUntil("the ticket") { board.events.count == 1 }
        board.watchTicket(5)
        await waitUntil("the watched ticket") { board.events.count == 2 }
        board.watchTicket(5)
        await waitUntil("the watched ticket again") { board.events.count == 3 }
        board.reloadMember()
        await waitUntil("the member, as delegate") { board.events.count == 4 }

        XCTAssertEqual(
            board.events,
            ["opened: Ticket 2", "watched: Ticket 5", "watched: Ticket 5", "delegate member: Grace Hopper"])
        XCTAssertEqual(board.watchedTicket?.ticketID, 5)
    }

    @MainActor
    func testThatTheChainAndBothBatchFormsFillTheBoard() async throws {
        let (board, _) = try makeBoard()

        board.openPinnedTicket()
        await waitUntil("the pinned ticket") { board.events.count == 1 }
        XCTAssertEqual(board.title, "Ticket 4")
        board.loadHeader()
        await waitUntil("the header") { board.events.count == 2 }
        XCTAssertEqual(board.rows, ["Ticket 1"])
        board.loadStarred([7, 8])
        await waitUntil("the starred tickets") { board.events.count == 3 }

        XCTAssertEqual(board.title, "Grace Hopper")
        XCTAssertEqual(board.rows, ["Ticket 7", "Ticket 8"])
        XCTAssertEqual(board.events, ["pinned: Ticket 4", "header: Grace Hopper, Ticket 1", "starred: 2"])
    }

    @MainActor
    func testThatBothPaginatorFormsPageTheirTicketsToTheEnd() async throws {
        let (board, _) = try makeBoard()

        board.loadOpenTickets()
        await waitUntil("the first open page") { board.events.count == 1 }
        board.loadClosedTickets()
        await waitUntil("the first closed page") { board.events.count == 2 }
        for count in 3...5 {
            board.loadMoreOpenTickets()
            await waitUntil("open call \(count)") { board.events.count == count }
        }
        for count in 6...7 {
            board.loadMoreClosedTickets()
            await waitUntil("closed call \(count)") { board.events.count == count }
        }

        XCTAssertEqual(board.rows, BoardBackend.openTitles)
        XCTAssertEqual(board.closedRows, BoardBackend.closedTitles)
        XCTAssertEqual(
            board.events,
            [
                "open: 2 rows", "closed page 1: 2 rows", "open: 4 rows", "open: 5 rows", "open: end",
                "closed page 2: 3 rows", "closed: end",
            ])
    }

    @MainActor
    func testThatTheActivityClosuresAndTheStreamDelegateHearEveryLineThenTheSummary() async throws {
        let (board, _) = try makeBoard()

        board.followActivity()
        await waitUntil("the closures' stream to end") { board.events.count == 4 }
        board.listenToActivity()
        await waitUntil("the delegate's stream to end") { board.events.count == 8 }

        let bytes = BoardBackend.activityBytes
        XCTAssertEqual(
            board.events,
            [
                "activity: grace opened 101", "activity: alan closed 102", "activity: ada commented on 101",
                "activity ended after \(bytes) bytes",
                "listened activity: grace opened 101", "listened activity: alan closed 102",
                "listened activity: ada commented on 101", "listened activity ended after \(bytes) bytes",
            ])
        XCTAssertNil(board.errorMessage)
    }

    @MainActor
    func testThatTheAsyncMethodsWriteTheBoardAfterEachAwait() async throws {
        let (board, _) = try makeBoard()

        await perform("refreshTitle") { await board.refreshTitle() }
        XCTAssertEqual(board.title, "Grace Hopper")
        await perform("createTicket") { await board.createTicket(titled: "Export to CSV") }
        XCTAssertEqual(board.title, "Export to CSV")
        XCTAssertFalse(board.isLoading)
        await perform("streamActivity") { await board.streamActivity() }

        XCTAssertEqual(
            board.events,
            [
                "async member: Grace Hopper", "created: Export to CSV", "async activity: grace opened 101",
                "async activity: alan closed 102", "async activity: ada commented on 101", "async activity ended",
            ])
    }
}
