// The complete example of Docs/Migration/FromRequestBaseClass.md (and its Chinese twin), copied verbatim below its
// imports (keep them in sync: when the guide's example changes, copy it here), then run against
// the loopback server.

import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - The guide's example, verbatim from its first declaration

nonisolated struct OrderSummary: Decodable, Sendable {
    let id: Int
    let total: Double
}

/// A list of orders: GET, a tag, retries, its own timeout, a cache for offline.
nonisolated final class OrderListRequest: BaseRequest<[OrderSummary]> {
    let page: Int
    init(page: Int) { self.page = page }

    override var path: RequestPath { "/orders" }
    override var parameters: RequestParameters { ["page": QueryValue(page), "size": 20] }
    override var headers: HTTPHeaders { ["X-Shop": "7"] }
    override var tag: String? { "orders" }
    override var retrier: (any RequestRetrier)? { RetryPolicy(maxRetries: 3) }
    override var idleTimeout: TimeInterval? { 10 }
    override var cachePolicy: CachePolicy? { CachePolicy(lifetime: 300) }
}

/// Photos of a review: one POST with every file as a part.
nonisolated final class ReviewPhotosRequest: BaseRequest<Empty> {
    let orderID: Int
    let photos: [URL]
    init(orderID: Int, photos: [URL]) {
        self.orderID = orderID
        self.photos = photos
    }

    override var method: HTTPMethod { .post }
    override var path: RequestPath { "/orders/\(orderID)/photos" }
    override var parameters: RequestParameters {
        var form = MultipartFormData()
        for photo in photos { form.append(fileAt: photo, name: "photos[]") }  // streamed from disk
        return .multipart(form)
    }
    override var tag: String? { "orders" }
}

/// An invoice saved to a file; an interrupted download continues where it stopped.
struct InvoiceDownload: DownloadRequest {
    let orderID: Int
    let file: URL
    var path: RequestPath { "/orders/\(orderID)/invoice.pdf" }
    var destination: DownloadDestination { .file(file, replacingExisting: true) }
}

@MainActor final class OrdersScreen: APIRequestDelegate {
    let client: APIClient
    let list = OrderListRequest(page: 1)
    /// What the screen shows.
    private(set) var orders: [OrderSummary] = []
    private(set) var message: String?

    init(baseURL: URL? = URL(string: "https://shop.example.com")) {
        client = APIClient(baseURL: baseURL) {
            $0.cache = ResponseCache(directory: nil)  // what the requests' cachePolicy needs
        }
    }

    func load() {
        list.delegate = self  // held weakly
        list.start(with: client)  // again on pull-to-refresh: the old one is cancelled
    }

    func uploadPhotos(_ photos: [URL], for order: Int) {
        let upload = ReviewPhotosRequest(orderID: order, photos: photos)
        client.send(upload, progress: { print("sent", $0.bytesSent) }) { result in
            self.message = result.isSuccess ? "uploaded" : "failed"
        }
    }

    func downloadInvoice(for order: Int, to file: URL) async throws -> URL {
        try await client.value(for: InvoiceDownload(orderID: order, file: file))
    }

    func leave() {
        print(client.inFlightRequests.count, "requests running")  // the old request queue
        client.cancelRequests(tagged: "orders")  // each completes as cancelled
    }

    func request<R: APIRequest>(_ request: R, didSucceedWith value: R.Response, metadata: ResponseMetadata) {
        if let orders = value as? [OrderSummary] { self.orders = orders }
    }
    func request<R: APIRequest>(_ request: R, didFailOnServer failure: ServerFailure) {
        message = "refused: \(failure.message ?? "\(failure.statusCode)")"
    }
    func request<R: APIRequest>(_ request: R, didFailInTransport error: TransportError) {
        if error.reason != .cancelled { message = "no answer: \(error.message)" }
    }
}

// MARK: - Tests

final class FromRequestBaseClassMigrationTests: LoopbackTestCase {
    @MainActor func testThatTheListLoadsThroughTheDelegateAndTheSecondLoadIsCached() async throws {
        // GIVEN an orders route
        let inbox = Inbox()
        server.route("/orders") { request in
            inbox.record(request)
            return .json(string: #"[{"id":1,"total":9.5},{"id":2,"total":20}]"#)
        }
        let screen = OrdersScreen(baseURL: server.baseURL)

        // WHEN the screen loads twice
        screen.load()
        let first = await eventually { screen.orders.count == 2 }
        let second = expectation(description: "second load")
        screen.list.start(with: screen.client) { _ in second.fulfill() }
        await fulfillment(of: [second], timeout: 10)

        // THEN the delegate got the orders, the request was as declared, and the cache answered the second
        XCTAssertTrue(first)
        XCTAssertEqual(screen.orders.map(\.id), [1, 2])
        XCTAssertEqual(inbox.requests.count, 1, "the second load is a fresh cache entry")
        let request = try XCTUnwrap(inbox.requests.first)
        XCTAssertEqual(request.queryValue("page"), "1")
        XCTAssertEqual(request.queryValue("size"), "20")
        XCTAssertEqual(request.header("X-Shop"), "7")
    }

    @MainActor func testThatPhotosUploadAsOneMultipartAndTheInvoiceDownloads() async throws {
        // GIVEN photo and invoice routes, and two photos on disk
        let inbox = Inbox()
        server.route("/orders/5/photos") { request in
            inbox.record(request)
            return .status(204)
        }
        let invoice = TestServer.patternBytes(count: 10_000)
        server.route("/orders/5/invoice.pdf") { _ in
            .response(status: 200, headers: [("Content-Type", "application/pdf")], body: invoice)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try ["a.jpg", "b.jpg"].map { name in
            let url = folder.appendingPathComponent(name)
            try Data(name.utf8).write(to: url)
            return url
        }
        let screen = OrdersScreen(baseURL: server.baseURL)

        // WHEN the example uploads the photos and downloads the invoice
        screen.uploadPhotos(photos, for: 5)
        let uploaded = await eventually { screen.message != nil }
        let file = try await screen.downloadInvoice(for: 5, to: folder.appendingPathComponent("invoice.pdf"))

        // THEN one POST carried both files, and the invoice is in its file
        XCTAssertTrue(uploaded)
        XCTAssertEqual(screen.message, "uploaded")
        let body = String(decoding: try XCTUnwrap(inbox.requests.first).body, as: UTF8.self)
        XCTAssertEqual(body.components(separatedBy: #"name="photos[]""#).count - 1, 2, body)
        XCTAssertTrue(body.contains("a.jpg") && body.contains("b.jpg"), body)
        XCTAssertEqual(try Data(contentsOf: file), invoice)
    }

    @MainActor func testThatLeavingCancelsTheTaggedRequestsWithoutAMessage() async throws {
        // GIVEN a list that never answers
        server.route("/orders") { _ in .stall }
        let screen = OrdersScreen(baseURL: server.baseURL)
        screen.load()
        let running = await eventually { screen.client.inFlightRequests.count == 1 }

        // WHEN the screen is left
        screen.leave()
        let cancelled = await eventually { screen.client.inFlightRequests.isEmpty }

        // THEN the request ended, and the delegate skipped the cancellation
        XCTAssertTrue(running)
        XCTAssertTrue(cancelled)
        XCTAssertNil(screen.message)
        XCTAssertTrue(screen.orders.isEmpty)
    }
}
