import EndpointKit
import EndpointKitTesting
import Foundation

// The endpoints the kit's tests stub, check, record and replay: defined once, used everywhere.

struct Profile: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct GetProfile: APIRequest {
    typealias Response = Profile
    let id: Int
    var path: RequestPath { "/profiles/\(id)" }
}

extension GetProfile: SampleResponseProviding {
    var sampleResponse: StubResponse { .json(["id": .int(id), "name": "Sample"]) }
    var sampleResponses: [String: StubResponse] {
        ["missing": .status(404, body: "no such profile"), "slow": .delayed(30, .json("{}"))]
    }
}

struct UpdateProfile: APIRequest {
    typealias Response = Profile
    let id: Int
    let name: String
    var method: HTTPMethod { .put }
    var path: RequestPath { "/profiles/\(id)" }
    var headers: HTTPHeaders { ["Authorization": "Bearer secret-token", "Accept": "application/json"] }
    var parameters: RequestParameters {
        RequestParameters.json(["name": .string(name), "tags": ["a", "b"], "age": 36]).appendingQuery(["notify": true])
    }
}

struct SearchProfiles: APIRequest {
    typealias Response = [Profile]
    let term: String
    var path: RequestPath { "/search" }
    var parameters: RequestParameters { .query(["q": .string(term), "page": 1, "access_token": "query-secret"]) }
}

struct Login: APIRequest {
    typealias Response = JSONValue
    let user: String
    let password: String
    var method: HTTPMethod { .post }
    var path: RequestPath { "/login" }
    var parameters: RequestParameters { .form(["user": .string(user), "password": .string(password)]) }
}

struct GetBytes: APIRequest {
    typealias Response = Data
    var path: RequestPath { "/bytes/16" }
}

/// A subclass-style endpoint with its sample declared `nonisolated`, as `BaseRequest` requires.
final class ProfileRequest: BaseRequest<Profile>, SampleResponseProviding {
    let profileID: Int
    nonisolated init(profileID: Int) { self.profileID = profileID }
    override var path: RequestPath { "/profiles/\(profileID)" }
    nonisolated var sampleResponse: StubResponse { .json(["id": .int(profileID), "name": "Subclass sample"]) }
}

/// A client on `transport` with a short deadline.
func makeClient(
    _ transport: any Transport, baseURL: String = "https://api.test",
    configure: (inout APIClient.Configuration) -> Void = { _ in }
) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: URL(string: baseURL), transport: transport)
    configuration.timeouts.total = 10
    configure(&configuration)
    return APIClient(configuration: configuration)
}

/// The folder holding this target's checked-in fixtures.
let fixturesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// A new folder name under the temporary directory, for fixtures a test records.
func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("EndpointKitTesting-\(UUID().uuidString)")
}

extension APIResult {
    /// The transport error, if that is the outcome.
    var transportError: TransportError? {
        if case .transportError(let error) = self { return error }
        return nil
    }

    /// The server failure, if that is the outcome.
    var serverFailure: ServerFailure? {
        if case .serverFailure(let failure) = self { return failure }
        return nil
    }
}

/// A multipart upload: a text field, a JSON part and a photo.
struct UploadPhoto: APIRequest {
    typealias Response = Profile
    var inMemoryThreshold = 10 * 1024 * 1024
    var method: HTTPMethod { .post }
    var path: RequestPath { "/upload" }
    var parameters: RequestParameters {
        var form = MultipartFormData()
        form.inMemoryThreshold = inMemoryThreshold
        form.append("Ada", name: "owner")
        form.append(json: ["count": 2], name: "items")
        form.append(Data([0x89, 0x50, 0x4E, 0x47]), name: "photo", fileName: "cat.png")
        return .multipart(form)
    }
}

/// A raw file upload.
struct UploadFile: APIRequest {
    typealias Response = Empty
    let file: URL
    var method: HTTPMethod { .put }
    var path: RequestPath { "/files/report.bin" }
    var parameters: RequestParameters { .file(file, contentType: "application/octet-stream") }
}

/// A download of `/bytes/16` to a file.
struct DownloadBytes: DownloadRequest {
    let destination: DownloadDestination
    var path: RequestPath { "/bytes/16" }
}

/// Collects values from any thread.
final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}
