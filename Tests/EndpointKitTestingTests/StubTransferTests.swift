@_spi(Internal) import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// StubTransport with uploads (multipart, files), downloads and progress.
final class StubTransferTests: XCTestCase {
    private let stubs = StubTransport()
    private let folder = temporaryFolder()
    private let photo = ExpectedPart.file(
        "photo", fileName: "cat.png", contentType: "image/png", data: Data([0x89, 0x50, 0x4E, 0x47]))

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Sends with a progress closure and waits (bounded) for the result.
    private func send<Request: APIRequest>(
        _ request: Request, client: APIClient
    ) async -> (APIResult<Request.Response>, [TransferProgress]) {
        let progress = Collector<TransferProgress>()
        let result = Collector<APIResult<Request.Response>>()
        let done = expectation(description: "completion")
        client.send(request, progress: { progress.append($0) }) { outcome in
            result.append(outcome)
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
        // The completion and the progress closure share the callback queue: the last value is in.
        return (result.values[0], progress.values)
    }

    func testThatAMultipartUploadIsRecordedAndMatchesItsContract() async throws {
        stubs.stub(.request(UploadPhoto.self), with: .json(#"{"id":1,"name":"uploaded"}"#))
        let profile = try await makeClient(stubs).value(for: UploadPhoto())
        XCTAssertEqual(profile.name, "uploaded")
        let recorded = try XCTUnwrap(stubs.recordedRequests.first)
        XCTAssertNil(recorded.bodyFile)
        let contract = EndpointContract(
            method: .post, body: .multipart([.field("owner", "Ada"), .json("items", ["count": 2]), photo]))
        assertContract(contract.check(recorded))
    }

    func testThatAMultipartBodyStreamedFromAFileIsKeptAfterTheFileIsGone() async throws {
        stubs.stub(.anyRequest, with: .json(#"{"id":1,"name":"uploaded"}"#))
        _ = try await makeClient(stubs).value(for: UploadPhoto(inMemoryThreshold: 16))
        let recorded = try XCTUnwrap(stubs.recordedRequests.first)
        let file = try XCTUnwrap(recorded.bodyFile)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "the client removes its temporary file")
        XCTAssertEqual(recorded.bodySize, Int64(recorded.body.count))
        let contract = EndpointContract(
            body: .multipart([photo, .field("owner", "Ada"), .json("items", ["count": 2])]))
        assertContract(contract.check(recorded))
    }

    func testThatAFileUploadReportsProgressToTheEnd() async throws {
        let file = folder.appendingPathComponent("upload.bin")
        try Data(repeating: 7, count: 1000).write(to: file)
        stubs.stub(.request(UploadFile.self), with: .status(204))
        let (result, progress) = await send(UploadFile(file: file), client: makeClient(stubs))
        XCTAssertTrue(result.isSuccess, "\(result)")
        XCTAssertEqual(stubs.recordedRequests.first?.body, Data(repeating: 7, count: 1000))
        XCTAssertTrue(progress.contains { $0.bytesSent == 1000 && $0.totalBytesToSend == 1000 }, "\(progress)")
        XCTAssertEqual(progress.last?.fractionCompleted, 1)
        let fractions = progress.compactMap(\.fractionCompleted)
        XCTAssertEqual(fractions, fractions.sorted(), "progress never goes backwards")
    }

    func testThatADownloadIsWrittenToItsDestinationWithProgress() async throws {
        let destination = folder.appendingPathComponent("bytes.bin")
        stubs.stub(.request(DownloadBytes.self), with: .data(Data(0..<16)))
        let (result, progress) = await send(DownloadBytes(destination: .file(destination)), client: makeClient(stubs))
        XCTAssertEqual(result.value, destination)
        XCTAssertEqual(try Data(contentsOf: destination), Data(0..<16))
        XCTAssertTrue(progress.contains { $0.bytesReceived == 16 && $0.totalBytesToReceive == 16 }, "\(progress)")
        XCTAssertEqual(progress.last?.fractionCompleted, 1)
    }

    func testThatAFailedDownloadWritesNothing() async {
        let destination = folder.appendingPathComponent("missing.bin")
        stubs.stub(.request(DownloadBytes.self), with: .status(404, body: "gone"))
        let result = await makeClient(stubs).send(DownloadBytes(destination: .file(destination)))
        XCTAssertEqual(result.serverFailure?.bodyText, "gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func testThatA206ContinuesAResumedDownloadAtItsOffset() throws {
        let file = folder.appendingPathComponent("partial.bin")
        try Data("0123".utf8).write(to: file)
        stubs.stub(
            .path("/resume"), with: .data(Data("456789".utf8), status: 206, headers: ["Content-Range": "bytes 4-9/10"]))
        stubs.stub(
            .path("/wrong-range"), with: .data(Data("x".utf8), status: 206, headers: ["Content-Range": "bytes 0-0/10"]))

        let resumed = try answer(to: "/resume", download: DownloadTarget(fileURL: file, resumeOffset: 4))
        XCTAssertEqual(try resumed.get().fileURL, file)
        XCTAssertEqual(try Data(contentsOf: file), Data("0123456789".utf8))

        let wrong = try answer(to: "/wrong-range", download: DownloadTarget(fileURL: file, resumeOffset: 4))
        guard case .failure(let error) = wrong else { return XCTFail("\(wrong)") }
        XCTAssertEqual(error.reason, .badResponse)
    }

    /// Asks the stub transport directly, as the client would for a download.
    private func answer(to path: String, download: DownloadTarget) throws -> Result<TransportResponse, TransportError> {
        let url = try XCTUnwrap(URL(string: "https://api.test" + path))
        let outcome = Collector<Result<TransportResponse, TransportError>>()
        let done = expectation(description: path)
        let request = TransportRequest(
            urlRequest: URLRequest(url: url), timeouts: Timeouts(total: 5), maximumResponseSize: 100, download: download
        )
        _ = stubs.execute(request) { result in
            outcome.append(result)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        return outcome.values[0]
    }
}
