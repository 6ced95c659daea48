import EndpointKit
import EndpointKitStreaming
import EndpointKitTestServer
import Foundation
import XCTest

@testable import EndpointKitStubs

/// The endpoints generated at build time from this target's openapi.yaml (the build-tool plugin),
/// each built, sent to a loopback server that answers with the document's example, and decoded.
final class RoundTripTests: XCTestCase {
    /// What the server answers next and what it received, shared with its handler thread.
    private final class Exchange: @unchecked Sendable {
        private let lock = NSLock()
        private var answer: TestResponse = .status(500)
        private var received: [TestRequest] = []

        func answer(with response: TestResponse) { lock.withLock { answer = response } }
        func handle(_ request: TestRequest) -> TestResponse {
            lock.withLock {
                received.append(request)
                return answer
            }
        }
        var last: TestRequest? { lock.withLock { received.last } }
    }

    private var server: TestServer!
    private let exchange = Exchange()
    private var client: APIClient!

    override func setUpWithError() throws {
        server = try TestServer()
        let exchange = exchange
        server.route("*") { exchange.handle($0) }
        client = APIClient(baseURL: server.baseURL) {
            $0.interceptors = [BearerInterceptor { "t0k" }, StaffKeyInterceptor { "staff-1" }]
            $0.timeouts.total = 10
        }
    }

    override func tearDown() {
        server.stop()
    }

    /// Serves the endpoint's generated sample response.
    private func answer<Request: SampleResponseProviding>(with request: Request) throws {
        guard case .http(let status, let headers, let body) = request.sampleResponse.content else {
            return XCTFail("\(Request.self)'s sample is not an HTTP response")
        }
        exchange.answer(with: .response(status: status, headers: headers.map { ($0.name, $0.value) }, body: body))
    }

    func testAListIsSentWithItsQueryAndHeaderAndDecodesEveryConstructOfItsExample() async throws {
        try answer(with: ListAnimals())
        let trace = UUID()
        let page = try await client.value(for: ListAnimals(kind: .dog, tags: ["a", "b"], limit: 10, xTrace: trace))
        let sent = try XCTUnwrap(exchange.last)
        XCTAssertEqual(sent.method, "GET")
        XCTAssertEqual(sent.path, "/animals")
        XCTAssertEqual(sent.query.map { "\($0.name)=\($0.value)" }, ["kind=dog", "tags=a", "tags=b", "limit=10"])
        XCTAssertEqual(sent.headers.first { $0.name.lowercased() == "x-trace" }?.value, trace.uuidString)
        XCTAssertEqual(sent.headers.first { $0.name.lowercased() == "authorization" }?.value, "Bearer t0k")
        XCTAssertEqual(page.items.count, 2)
        XCTAssertEqual(page.items[0].id, 9_007_199_254_740_993)  // beyond a Double's integers
        XCTAssertEqual(page.items[0].chip, UUID(uuidString: "3F1E2C9A-0B7D-4E8A-9C55-1D2E3F4A5B6C"))
        XCTAssertEqual(page.items[0].born, Date(timeIntervalSince1970: 1_617_271_200))
        XCTAssertNil(page.items[0].notes)
        XCTAssertEqual(page.items[1].kind, .unknown("parrot"))  // a value the document does not list
        XCTAssertEqual(page.items[1].born.timeIntervalSince1970, 1_577_934_245.678, accuracy: 0.001)
        guard case .catDetails(let details) = page.items[1].details else { return XCTFail("\(page.items[1].details)") }
        XCTAssertEqual(details.indoor, true)
        XCTAssertNil(page.next)
        XCTAssertEqual(page.counts, ["dog": 1, "parrot": 1])
    }

    func testAJSONBodyFromAnAllOfIsSentFlatAndTheCreatedValueDecodes() async throws {
        try answer(with: AdmitAnimal(name: "x", kind: .dog))
        let request = AdmitAnimal(
            name: "Rex", kind: .dog, details: .dogDetails(DogDetails(kind: "dog", breed: "Collie")))
        let animal = try await client.value(for: request)
        let sent = try XCTUnwrap(exchange.last)
        XCTAssertEqual(sent.method, "POST")
        let body = try JSONDecoder().decode(JSONValue.self, from: sent.body)
        XCTAssertEqual(body, ["name": "Rex", "kind": "dog", "details": ["kind": "dog", "breed": "Collie"]])
        XCTAssertEqual(animal.id, 3)
        guard case .dogDetails(let details) = animal.details else { return XCTFail("\(animal.details)") }
        XCTAssertEqual(details.breed, "Collie")
    }

    func testAPathParameterIsOneSegmentAndAnEscapedExampleDecodes() async throws {
        try answer(with: GetAnimal(animalId: 0))
        let animal = try await client.value(for: GetAnimal(animalId: 7))
        XCTAssertEqual(exchange.last?.path, "/animals/7")
        XCTAssertEqual(animal.name, "Ada / \"the cat\"")
    }

    func testANoContentAnswerIsEmpty() async throws {
        exchange.answer(with: .status(204))
        _ = try await client.value(for: ReleaseAnimal(animalId: 9))
        XCTAssertEqual(exchange.last?.method, "DELETE")
    }

    func testAMultipartBodyCarriesItsFileAndTextParts() async throws {
        try answer(with: UploadPhoto(animalId: 1, file: MultipartFile(data: Data(), fileName: "x")))
        let photo = MultipartFile(data: Data("JPEG".utf8), fileName: "rex.jpg", contentType: "image/jpeg")
        let stored = try await client.value(for: UploadPhoto(animalId: 1, file: photo, caption: "Rex"))
        let sent = try XCTUnwrap(exchange.last)
        let contentType = sent.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        XCTAssertTrue(contentType.hasPrefix("multipart/form-data; boundary="), contentType)
        let text = String(decoding: sent.body, as: UTF8.self)
        XCTAssertTrue(text.contains("name=\"file\"; filename=\"rex.jpg\""), text)
        XCTAssertTrue(text.contains("JPEG"), text)
        XCTAssertTrue(text.contains("name=\"caption\""), text)
        XCTAssertEqual(stored.bytes, 4)
    }

    func testATextResponseIsAString() async throws {
        try answer(with: ReadNotes(animalId: 1))
        let notes = try await client.value(for: ReadNotes(animalId: 1))
        XCTAssertEqual(notes, "Likes long walks.\nAfraid of thunder.\n")
    }

    func testAFormBodyAndARecursiveModel() async throws {
        try answer(with: RegisterAdopter(name: "x", email: "y"))
        let adopter = try await client.value(
            for: RegisterAdopter(name: "Grace Hopper", email: "grace@example.com", newsletter: true))
        let sent = try XCTUnwrap(exchange.last)
        XCTAssertEqual(
            String(decoding: sent.body, as: UTF8.self), "name=Grace%20Hopper&email=grace%40example.com&newsletter=true")
        XCTAssertEqual(adopter.since, "2024-02-29")
        XCTAssertEqual(adopter.address?.next?.city, "Bergen")
    }

    func testAnEventStreamIsReadAsServerSentEvents() async throws {
        try answer(with: WatchEvents())
        var events: [String] = []
        for try await event in client.stream(WatchEvents()) {
            events.append(event.data)
            if events.count == 2 { break }
        }
        XCTAssertEqual(events, ["admitted Rex", "released Tom"])
        XCTAssertEqual(WatchEvents().reconnection, .default)  // a GET event stream reconnects
    }

    func testEveryOperationWithAnExampleIsInTheSampleRequestsAndRoundTrips() async throws {
        XCTAssertEqual(SampleRequests.all.count, 7)
        for request in SampleRequests.all {
            try await roundTrip(request)
        }
    }

    private func roundTrip<Request: SampleResponseProviding>(_ request: Request) async throws {
        try answer(with: request)
        if let stream = request as? WatchEvents {
            for try await _ in client.stream(stream) { break }
            return
        }
        let result = await client.send(request)
        guard case .success = result else { return XCTFail("\(Request.self): \(result)") }
    }

    func testAHandWrittenEndpointIsCheckedAgainstTheDocument() throws {
        struct HandWrittenGetAnimal: APIRequest {
            typealias Response = Empty
            var path: RequestPath { "/animal/7" }
            var parameters: RequestParameters { .query(["verbose": true]) }
        }
        let report = Contracts.getAnimal.check(HandWrittenGetAnimal(), baseURL: server.baseURL)
        XCTAssertEqual(report.mismatches.map(\.aspect), [.url, .query], report.description)
        XCTAssertTrue(Contracts.getAnimal.check(GetAnimal(animalId: 7), baseURL: server.baseURL).isSatisfied)
    }
}
