import EndpointKit
import EndpointKitComposition
import EndpointKitTestServer
import Foundation
import XCTest

/// Multipart bodies: byte-for-byte against RFC 7578, in memory and streamed from a temporary file.
final class MultipartTests: LoopbackTestCase {
    struct Upload: APIRequest {
        typealias Response = JSONValue
        var form: MultipartFormData
        var method: HTTPMethod = .post
        var path: RequestPath { "/upload" }
        var parameters: RequestParameters { .multipart(form) }
    }

    private func temporaryFile(_ name: String, bytes: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ek-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return url
    }

    private func multipartTemporaryFiles() -> Set<String> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("EndpointKit-multipart-") })
    }

    func testThatTheBodyFollowsRFC7578ByteForByte() throws {
        let photo = try temporaryFile("cat.PNG", bytes: Data([0x89, 0x50, 0x4E, 0x47]))
        var form = MultipartFormData()
        form.boundary = "BOUNDARY"
        form.append("Ada \"L\"", name: "owner")
        form.append(json: ["count": 2], name: "items")
        form.append(fileAt: photo, name: "photo")
        form.append(Data("raw".utf8), name: "note", fileName: "n.txt", headers: ["Content-Transfer-Encoding": "binary"])
        let request = try client.urlRequest(for: Upload(form: form))
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "multipart/form-data; boundary=BOUNDARY")
        var expected = Data()
        expected.append(Data("--BOUNDARY\r\nContent-Disposition: form-data; name=\"owner\"\r\n\r\nAda \"L\"".utf8))
        expected.append(Data("\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"items\"\r\n".utf8))
        expected.append(Data("Content-Type: application/json\r\n\r\n{\"count\":2}".utf8))
        expected.append(
            Data("\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"cat.PNG\"\r\n".utf8))
        expected.append(Data("Content-Type: image/png\r\n\r\n".utf8))
        expected.append(Data([0x89, 0x50, 0x4E, 0x47]))
        expected.append(
            Data("\r\n--BOUNDARY\r\nContent-Disposition: form-data; name=\"note\"; filename=\"n.txt\"\r\n".utf8))
        expected.append(Data("Content-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n\r\nraw".utf8))
        expected.append(Data("\r\n--BOUNDARY--\r\n".utf8))
        XCTAssertEqual(request.httpBody, expected)
    }

    func testThatABoundaryFoundInTheContentIsReplaced() throws {
        var form = MultipartFormData()
        form.boundary = "COLLIDE"
        form.append("this text contains COLLIDE", name: "text")
        let request = try client.urlRequest(for: Upload(form: form))
        let contentType = try XCTUnwrap(request.value(forHTTPHeaderField: "Content-Type"))
        XCTAssertFalse(contentType.hasSuffix("=COLLIDE"))
        XCTAssertTrue(
            String(decoding: request.httpBody ?? Data(), as: UTF8.self).contains("this text contains COLLIDE"))
    }

    func testThatALargeFormIsStreamedFromATemporaryFileThatIsRemoved() async throws {
        let bytes = Data((0..<300_000).map { UInt8($0 % 251) })
        let file = try temporaryFile("big.bin", bytes: bytes)
        let received = Locked(Data())
        server.route("/upload") { request in
            received.value = request.body
            return .json([
                "contentLength": request.header("Content-Length") ?? "",
                "chunked": request.header("Transfer-Encoding") ?? "",
            ])
        }
        var form = MultipartFormData()
        form.inMemoryThreshold = 1024
        form.append("x", name: "field")
        form.append(fileAt: file, name: "blob")
        let before = multipartTemporaryFiles()
        let result = await client.send(Upload(form: form))
        XCTAssertEqual(result.value?.description, #"{"chunked":"","contentLength":"\#(received.value.count)"}"#)
        var inMemory = form
        inMemory.inMemoryThreshold = .max
        XCTAssertEqual(received.value, try client.urlRequest(for: Upload(form: inMemory)).httpBody)
        XCTAssertEqual(multipartTemporaryFiles(), before)
    }

    func testThatPUTMultipartWorksAndAMissingFileFailsBeforeSending() async throws {
        server.route("/upload") { request in .json(["method": request.method, "size": request.body.count]) }
        var form = MultipartFormData()
        form.append("v", name: "k")
        let put = await client.send(Upload(form: form, method: .put))
        XCTAssertEqual(put.value?.description.contains(#""method":"PUT""#), true)

        var broken = MultipartFormData()
        broken.append(fileAt: URL(fileURLWithPath: "/nonexistent/file.jpg"), name: "photo")
        let result = await client.send(Upload(form: broken))
        guard case .transportError(let error) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(error.reason, .requestBuildFailed)
        guard case .unreadableFile? = error.underlyingError as? RequestBuildError else { return XCTFail("\(error)") }
        XCTAssertEqual(server.requestCount, 1)
    }

    func testThatManyFilesUploadConcurrentlyKeepingEachOutcomeInOrder() async throws {
        server.route("/upload") { request in .json(["size": request.body.count]) }
        var requests: [Upload] = []
        for index in 0..<6 {
            var form = MultipartFormData()
            let url =
                index == 3
                ? URL(fileURLWithPath: "/nonexistent/\(index).txt")
                : try temporaryFile("\(index).txt", bytes: Data(repeating: UInt8(index), count: 1000 * (index + 1)))
            form.append(fileAt: url, name: "file")
            requests.append(Upload(form: form))
        }
        let results = await client.send(RequestBatch(requests, maxConcurrent: 2)).results
        XCTAssertEqual(results.count, 6)
        XCTAssertEqual(results.map(\.isSuccess), [true, true, true, false, true, true])
        XCTAssertEqual(results[3].transportReason, .requestBuildFailed)
        guard case .object(let body)? = results[5].value, case .int(let size)? = body["size"] else {
            return XCTFail("\(results[5])")
        }
        XCTAssertGreaterThan(size, 6000)
    }

    func testThatAMIMETypeIsInferredFromTheExtensionAndOverridable() {
        XCTAssertEqual(MIMEType.forFileName("a.JPG"), "image/jpeg")
        XCTAssertEqual(MIMEType.forFileName("a.unknownext"), "application/octet-stream")
        XCTAssertEqual(MIMEType.forFileName(".hidden"), "application/octet-stream")
        var form = MultipartFormData()
        form.append(fileAt: URL(fileURLWithPath: "/tmp/x.jpg"), name: "f", mimeType: "image/x-custom")
        XCTAssertEqual(form.parts.first?.contentType, "image/x-custom")
    }
}
