// The complete example of Docs/Migration/FromClassMethodHelper.md (and its Chinese twin), copied verbatim below its
// imports (keep them in sync: when the guide's example changes, copy it here), then run against
// the loopback server.

import EndpointKit
import EndpointKitFeedback
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

struct Notice: nonisolated Decodable, Sendable {
    let id: Int
    let title: String
    @Lenient var readCount: Int  // the server sends 12 or "12"
}

/// Where the app's HUD and toast live: MBProgressHUD, SVProgressHUD, your own view.
@MainActor final class HUDFeedback: FeedbackPresenter {
    private(set) var shown: [String] = []
    func showLoading(text: String?, info: SendInfo) { shown.append("HUD") }
    func hideLoading(info: SendInfo) { shown.append("HUD hidden") }
    func showMessage(_ message: FeedbackMessage, info: SendInfo) { shown.append("Toast: \(message.text)") }
}

@MainActor enum Network {
    /// The one client: base URL, envelope, HUD and toast for every call.
    static var client = makeClient(baseURL: URL(string: "https://api.example.com"))

    static func makeClient(baseURL: URL?, hud: HUDFeedback = HUDFeedback()) -> APIClient {
        APIClient(baseURL: baseURL) {
            $0.envelope = .statusData()  // {"status":500,"data":{...}}: 500 means success here
            $0.plugins = [FeedbackPlugin(presenter: hud, texts: .english)]
        }
    }

    /// The old `+getUrl:parameters:success:failure:`, with the HUD on by default.
    @discardableResult
    static func get<Model: Decodable & Sendable>(
        _ path: RequestPath, parameters: QueryItems = [:], showHUD: Bool = true,
        success: @escaping @Sendable (Model) -> Void,
        failure: @escaping @Sendable (APIFailure) -> Void = { _ in }
    ) -> RequestHandle {
        let info = SendInfo { if !showHUD { $0.feedback = .silent } }
        return client.send(Endpoint<Model>(path: path, parameters: .query(parameters)), info: info) { result in
            switch result {
            case .success(let model, _): success(model)
            case .serverFailure(let error): failure(.server(error))
            case .transportError(let error): failure(.transport(error))
            }
        }
    }

    /// The old image upload: one JPEG as a multipart part, plus form fields.
    @discardableResult
    static func upload(
        jpeg: Data, to path: RequestPath, fields: [String: String],
        completion: @escaping @Sendable (APIResult<Empty>) -> Void
    ) -> RequestHandle {
        var form = MultipartFormData()
        for (name, value) in fields { form.append(value, name: name) }
        form.append(jpeg, name: "file", fileName: "photo.jpg", mimeType: "image/jpeg")
        return client.send(
            Endpoint<Empty>(method: .post, path: path, parameters: .multipart(form)), completion: completion)
    }
}

@MainActor func showNotices() {
    Network.get("/notices", parameters: ["page": 1]) { (notices: [Notice]) in
        print(notices.map(\.title))
    } failure: { failure in
        print("already shown by the HUD plugin:", failure)
    }
    Network.get("/badge", showHUD: false) { (count: Int) in print("badge", count) }
}

// MARK: - Tests

/// One value set from another thread.
private final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    func set(_ value: Value) { lock.withLock { stored = value } }
    var value: Value? { lock.withLock { stored } }
}

final class FromClassMethodHelperMigrationTests: LoopbackTestCase {
    private var original: APIClient?

    @MainActor private func useServer(_ hud: HUDFeedback) {
        original = Network.client
        Network.client = Network.makeClient(baseURL: server.baseURL, hud: hud)
    }

    @MainActor private func restore() {
        if let original { Network.client = original }
    }

    @MainActor func testThatTheHelperDecodesThe500EnvelopeAndShowsTheHUD() async throws {
        // GIVEN a backend whose success is "status": 500
        let inbox = Inbox()
        server.route("/notices") { request in
            inbox.record(request)
            return .json(string: #"{"status":500,"data":[{"id":1,"title":"Hello","readCount":"12"}]}"#)
        }
        server.route("/badge") { _ in .json(string: #"{"status":500,"data":3}"#) }
        let hud = HUDFeedback()
        useServer(hud)
        defer { restore() }

        // WHEN the old-style helper is called, with and without the HUD, and the example's screen runs
        let loaded = expectation(description: "notices")
        let badge = expectation(description: "badge")
        let notices = Box<[Notice]>()
        let count = Box<Int>()
        Network.get("/notices", parameters: ["page": 1]) { (value: [Notice]) in
            notices.set(value)
            loaded.fulfill()
        }
        Network.get("/badge", showHUD: false) { (value: Int) in
            count.set(value)
            badge.fulfill()
        }
        await fulfillment(of: [loaded, badge], timeout: 10)
        showNotices()
        let screen = await eventually { inbox.requests.count == 2 && hud.shown.count >= 4 }

        // THEN the models decoded (a lenient "12"), the query was sent, and one HUD came and went per call
        XCTAssertTrue(screen)
        XCTAssertEqual(notices.value?.first?.readCount, 12)
        XCTAssertEqual(count.value, 3)
        XCTAssertEqual(inbox.requests.first?.queryValue("page"), "1")
        XCTAssertEqual(Array(hud.shown.prefix(2)), ["HUD", "HUD hidden"])
    }

    @MainActor func testThatAFailingStatusIsAServerFailureWithTheToast() async throws {
        // GIVEN a refusal in the envelope
        server.route("/notices") { _ in .json(string: #"{"status":401,"data":"Please sign in"}"#) }
        let hud = HUDFeedback()
        useServer(hud)
        defer { restore() }

        // WHEN the helper is called
        let failed = expectation(description: "failure")
        let failure = Box<APIFailure>()
        Network.get("/notices") { (_: [Notice]) in
            XCTFail("not a success")
        } failure: { value in
            failure.set(value)
            failed.fulfill()
        }
        await fulfillment(of: [failed], timeout: 10)
        let toasted = await eventually { hud.shown.contains { $0.hasPrefix("Toast") } }

        // THEN the failure is the server's, with its message, and the plugin showed it
        XCTAssertTrue(toasted)
        guard case .server(let server)? = failure.value else { return XCTFail("\(String(describing: failure.value))") }
        XCTAssertEqual(server.message, "Please sign in")
        XCTAssertTrue(hud.shown.contains("Toast: Please sign in"), "\(hud.shown)")
    }

    @MainActor func testThatTheUploadSendsTheFieldsAndTheJPEG() async throws {
        // GIVEN an upload route
        let inbox = Inbox()
        server.route("/avatar") { request in
            inbox.record(request)
            return .json(string: #"{"status":500,"data":null}"#)
        }
        useServer(HUDFeedback())
        defer { restore() }

        // WHEN a JPEG is uploaded with one field
        let done = expectation(description: "upload")
        let outcome = Box<APIResult<Empty>>()
        Network.upload(jpeg: Data([0xFF, 0xD8, 0xFF]), to: "/avatar", fields: ["user": "7"]) { result in
            outcome.set(result)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 10)

        // THEN it succeeded and the server got one multipart body with both parts
        XCTAssertEqual(outcome.value?.isSuccess, true)
        let request = try XCTUnwrap(inbox.requests.first)
        XCTAssertEqual(request.header("Content-Type")?.hasPrefix("multipart/form-data; boundary="), true)
        let body = String(decoding: request.body, as: UTF8.self)
        XCTAssertTrue(body.contains(#"name="user""#), body)
        XCTAssertTrue(body.contains(#"name="file"; filename="photo.jpg""#), body)
        XCTAssertTrue(body.contains("Content-Type: image/jpeg"), body)
    }
}
