import Dispatch
import EndpointKit
import EndpointKitFeedback
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes down what the feedback plugin asks it to show, on the main actor.
@MainActor
final class RecordingPresenter: FeedbackPresenter {
    private(set) var events: [String] = []

    nonisolated init() {}

    func showLoading(text: String?, info: SendInfo) {
        events.append("show \(text ?? "-")" + (info.screen.map { " on \($0)" } ?? ""))
    }

    func hideLoading(info: SendInfo) { events.append("hide") }

    func showMessage(_ message: FeedbackMessage, info: SendInfo) {
        events.append("\(message.kind == .success ? "success" : "failure"): \(message.text)")
    }
}

/// A presentation detail a send site passes to the presenter (the view to cover, in an app).
enum ScreenKey: SendInfoKey {
    static let defaultValue: String? = nil
}

extension SendInfo {
    var screen: String? {
        get { self[ScreenKey.self] }
        set { self[ScreenKey.self] = newValue }
    }
}

/// The feedback plugin over loopback: loading shown once for overlapping sends, each outcome's
/// message, the switches, and per-send information from every kind of send site.
final class FeedbackPluginTests: LoopbackTestCase {
    /// Holds the server's answers until the test opens it; once open it stays open. The wait is
    /// bounded, so a failing test still ends.
    final class Latch: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false

        func wait() {
            let deadline = Date(timeIntervalSinceNow: 10)
            condition.lock()
            while !isOpen, condition.wait(until: deadline) {}
            condition.unlock()
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }

    private struct Quiet: APIRequest {
        typealias Response = Item
        var path: RequestPath { "/item" }
        var sendInfo: SendInfo { SendInfo { $0.feedback = .silent } }
    }

    private final class Receiver: APIRequestDelegate {
        let done: XCTestExpectation
        init(done: XCTestExpectation) { self.done = done }
        func request<Request: APIRequest>(
            _ request: Request, didSucceedWith value: Request.Response, metadata: ResponseMetadata
        ) { done.fulfill() }
    }

    private let presenter = RecordingPresenter()

    override func setUpWithError() throws {
        try super.setUpWithError()
        server.route("/item") { _ in .json(["id": 1, "name": "a"]) }
    }

    private func feedbackClient(
        _ plugin: FeedbackPlugin? = nil, _ configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) -> APIClient {
        let plugin = plugin ?? FeedbackPlugin(presenter: presenter)
        return makeClient {
            $0.plugins = [plugin]
            configure(&$0)
        }
    }

    /// What was presented, once everything the plugin posted before now has run on the main queue.
    @MainActor
    private func presented() async -> [String] {
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        return presenter.events
    }

    @MainActor
    private func send<R: APIRequest>(_ request: R, info: SendInfo = SendInfo(), client: APIClient) async {
        let done = expectation(description: "completion")
        client.send(request, info: info) { _ in done.fulfill() }
        await fulfillment(of: [done], timeout: 10)
    }

    @MainActor
    func testThatOneSendShowsLoadingThenHidesIt() async {
        let client = feedbackClient()
        await send(GetItem(), client: client)
        let texts = await presented()
        XCTAssertEqual(texts, ["show -", "hide"])
    }

    /// Each request is held by its own latch, so the indicator is looked at with a known set in flight.
    @MainActor
    func testThatOverlappingSendsShowLoadingOnceAndHideItWhenTheLastEnds() async {
        let latches = [Latch(), Latch(), Latch()]
        defer { latches.forEach { $0.open() } }
        for (index, latch) in latches.enumerated() {
            server.route("/held/\(index)") { _ in
                latch.wait()
                return index == 1 ? .status(500) : .json(["id": index, "name": "held"])
            }
        }
        let client = feedbackClient()
        var done: [XCTestExpectation] = []
        for index in latches.indices {
            let finished = expectation(description: "send \(index)")
            done.append(finished)
            client.send(GetItem(path: "/held/\(index)")) { _ in finished.fulfill() }
        }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 3, timeout: 5))
        var texts = await presented()
        XCTAssertEqual(texts, ["show -"], "three sends in flight, one indicator")

        latches[0].open()
        await fulfillment(of: [done[0]], timeout: 10)
        latches[1].open()
        await fulfillment(of: [done[1]], timeout: 10)
        texts = await presented()
        XCTAssertEqual(texts, ["show -", "failure: \(FeedbackTexts.english.serverFailure)"], "one send still runs")

        latches[2].open()
        await fulfillment(of: [done[2]], timeout: 10)
        texts = await presented()
        XCTAssertEqual(texts, ["show -", "failure: \(FeedbackTexts.english.serverFailure)", "hide"])

        // A later send shows it again.
        await send(GetItem(), client: client)
        texts = await presented()
        XCTAssertEqual(texts.suffix(2), ["show -", "hide"])
    }

    @MainActor
    func testThatEachOutcomeGetsItsMessageAndACancelGetsNone() async throws {
        server.route("/business") { _ in .json(string: #"{"status":401,"data":"Please log in again"}"#) }
        server.route("/silent-failure") { _ in .status(503) }
        server.route("/garbage") { _ in .json(string: #"{"id":"#) }
        server.route("/stall") { _ in .stall }
        let texts = FeedbackTexts.english
        let client = feedbackClient()
        let envelopeClient = feedbackClient { $0.envelope = .statusData() }

        await send(GetItem(path: "/business"), client: envelopeClient)
        await send(GetItem(path: "/silent-failure"), client: client)
        await send(GetItem(path: "/garbage"), client: client)
        await send(GetItem(path: "/stall", totalTimeout: 0.3), client: client)
        let closedPort = try XCTUnwrap(URL(string: "http://127.0.0.1:1"))
        await send(GetItem(), client: feedbackClient { $0.baseURL = closedPort })

        let cancelled = expectation(description: "cancelled")
        let handle = client.send(GetItem(path: "/stall")) { _ in cancelled.fulfill() }
        XCTAssertTrue(server.waitForRequestCount(atLeast: 5, timeout: 5))
        handle.cancel()
        await fulfillment(of: [cancelled], timeout: 10)

        let events = await presented()
        XCTAssertEqual(
            events,
            [
                "show -", "hide", "failure: Please log in again",
                "show -", "hide", "failure: \(texts.serverFailure)",
                "show -", "hide", "failure: \(texts.serverFailure)",
                "show -", "hide", "failure: \(texts.timeout)",
                "show -", "hide", "failure: \(texts.networkError)",
                "show -", "hide",
            ])
    }

    @MainActor
    func testThatAnOfflineFailureShowsTheOfflineTextWithoutLoading() async {
        let monitor = ConnectivityMonitor(pollingInterval: 0.05) { .offline }
        let deadline = Date(timeIntervalSinceNow: 5)
        while monitor.status != .offline, Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        let client = feedbackClient(FeedbackPlugin(presenter: presenter, texts: .simplifiedChinese)) {
            $0.connectivity = monitor
            $0.failsFastWhenOffline = true
        }
        await send(GetItem(), client: client)
        let events = await presented()
        XCTAssertEqual(events, ["failure: \(FeedbackTexts.simplifiedChinese.offline)"])
    }

    @MainActor
    func testThatTheSwitchesTurnLoadingAndMessagesOff() async {
        server.route("/fail") { _ in .status(500) }
        let client = feedbackClient()
        await send(GetItem(path: "/fail"), info: SendInfo { $0.feedback.showsLoading = false }, client: client)
        await send(GetItem(path: "/fail"), info: SendInfo { $0.feedback.showsFailureMessage = false }, client: client)
        await send(Quiet(), client: client)
        // The send site's options replace the endpoint's.
        await send(Quiet(), info: SendInfo { $0.feedback = FeedbackOptions(loadingText: "Again") }, client: client)
        let events = await presented()
        XCTAssertEqual(
            events, ["failure: \(FeedbackTexts.english.serverFailure)", "show -", "hide", "show Again", "hide"])
    }

    @MainActor
    func testThatASuccessMessageShowsOnlyForANetworkResponse() async throws {
        server.route("/cached") { _ in .json(["id": 1, "name": "a"], headers: [("Cache-Control", "max-age=60")]) }
        let client = feedbackClient { $0.cache = ResponseCache(directory: nil) }
        let info = SendInfo { $0.feedback.successMessage = "Saved" }
        await send(GetItem(path: "/cached"), info: info, client: client)
        await send(GetItem(path: "/cached"), info: info, client: client)  // fresh in the cache
        let events = await presented()
        XCTAssertEqual(events, ["show -", "hide", "success: Saved"])
    }

    @MainActor
    func testThatTextsAndTheFailureRuleCanBeReplaced() async {
        server.route("/fail") { _ in .status(500) }
        var texts = FeedbackTexts.simplifiedChinese
        texts.loading = "加载中"
        let plugin = FeedbackPlugin(presenter: presenter, texts: texts) { failure, _ in
            "code \(failure.statusCode ?? 0)"
        }
        let client = feedbackClient(plugin)
        await send(GetItem(path: "/fail"), client: client)
        let events = await presented()
        XCTAssertEqual(events, ["show 加载中", "hide", "failure: code 500"])
    }

    @MainActor
    func testThatSendInfoReachesThePresenterFromEverySendSite() async throws {
        let client = feedbackClient()
        await send(GetItem(), info: SendInfo { $0.screen = "closure" }, client: client)

        let delegated = expectation(description: "delegate")
        let receiver = Receiver(done: delegated)
        client.send(GetItem(), info: SendInfo { $0.screen = "delegate" }, delegate: receiver)
        await fulfillment(of: [delegated], timeout: 10)

        _ = try await client.value(for: GetItem(), info: SendInfo { $0.screen = "async" })
        _ = try await client.value(for: GetItem(), info: SendInfo { $0.screen = "task" }, progress: { _ in })

        server.route("/items/1") { _ in .json(["id": 1, "name": "a"]) }
        let started = expectation(description: "start")
        ItemRequest(itemID: 1).start(with: client, info: SendInfo { $0.screen = "object" }) { _ in started.fulfill() }
        await fulfillment(of: [started], timeout: 10)

        let events = await presented()
        XCTAssertEqual(
            events.filter { $0 != "hide" },
            ["show - on closure", "show - on delegate", "show - on async", "show - on task", "show - on object"])
    }
}
