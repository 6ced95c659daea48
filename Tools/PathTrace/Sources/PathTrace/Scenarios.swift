import EndpointKit
import Foundation
import TraceServer

/// The user the server answers with.
struct User: Decodable, Sendable {
    let id: Int
    let name: String
}

/// The endpoint: `GET /users/{id}`.
struct GetUser: APIRequest {
    typealias Response = User
    let id: Int
    var path: RequestPath { "/users/\(id)" }
}

/// A request the tool sends and traces.
struct Scenario: Sendable {
    /// The name on the command line.
    let name: String
    /// What it sends, in a line.
    let title: String
    /// Traces `repeats` runs (a warm-up request, then the traced one); one recording each.
    let run: @Sendable (_ repeats: Int, _ settle: Duration) async throws -> [Recording]

    static let all = [plain, cacheAndRetry]

    /// `try await client.value(for: GetUser(id: 7))` on `APIClient(baseURL:)`.
    static let plain = Scenario(
        name: "plain",
        title: "plain GET: try await client.value(for: GetUser(id: 7)), APIClient(baseURL:) with nothing configured"
    ) { repeats, settle in
        let server = try TestServer()
        defer { server.stop() }
        server.route("/users/*") { request in .json(["id": userID(in: request), "name": "Ada"]) }
        return try await traceRequests(repeats: repeats, settle: settle) {
            APIClient(baseURL: server.baseURL)
        } check: {
        }
    }

    /// The same GET on a client with a memory cache and a retry policy that does not wait: a cache
    /// miss, a 503, a retry, a 200 that is stored.
    static let cacheAndRetry = Scenario(
        name: "cache-retry",
        title:
            "GET with cache and retry: $0.cache = ResponseCache(directory: nil), "
            + "$0.retrier = RetryPolicy(maxRetries: 2, baseDelay: 0, jitter: 0); cache miss, 503, 200"
    ) { repeats, settle in
        let server = try TestServer()
        defer { server.stop() }
        let answered = PathCounter()
        server.route("/users/*") { request in
            // The first request for each user fails; the retry gets a cacheable answer.
            if answered.count(request.path) == 1 { return .json(["error": "busy"], status: 503) }
            return .json(
                ["id": userID(in: request), "name": "Ada"], headers: [("Cache-Control", "max-age=60")])
        }
        return try await traceRequests(repeats: repeats, settle: settle) {
            answered.reset()
            return APIClient(baseURL: server.baseURL) {
                $0.cache = ResponseCache(directory: nil)
                $0.retrier = RetryPolicy(maxRetries: 2, baseDelay: 0, jitter: 0)
            }
        } check: {
            for id in [1, 7] where answered.requests("/users/\(id)") != 2 {
                let count = answered.requests("/users/\(id)")
                throw TraceError.message("GET /users/\(id) reached the server \(count) times, not 2 (503, 200)")
            }
        }
    }

    /// For each run, a new client from `makeClient`, one warm-up request on it (user 1: the same
    /// path as the traced request, so that what runs once per client or per process has run), then
    /// the traced request (user 7). Every run sends the same bytes, so runs differ only by timing.
    private static func traceRequests(
        repeats: Int, settle: Duration, makeClient: () -> APIClient, check: () throws -> Void
    ) async throws -> [Recording] {
        var recordings: [Recording] = []
        for _ in 0..<repeats {
            let client = makeClient()
            let warmUp = try await client.value(for: GetUser(id: 1))
            guard warmUp.id == 1 else { throw TraceError.message("the warm-up got user \(warmUp.id)") }
            var received: User?
            let recording = try await Recorder.trace(settle: settle) {
                let user = try await client.value(for: GetUser(id: 7))
                Recorder.mark(.valueReturned)
                received = user
            }
            guard received?.id == 7 else {
                throw TraceError.message("GET /users/7 got \(String(describing: received))")
            }
            try check()
            recordings.append(recording)
        }
        return recordings
    }

    private static func userID(in request: TestRequest) -> Int {
        request.path.split(separator: "/").last.flatMap { Int($0) } ?? 0
    }
}

/// How many requests the server got for each path.
final class PathCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Counts one request for `path`; returns how many it got so far, this one included.
    func count(_ path: String) -> Int {
        lock.withLock {
            counts[path, default: 0] += 1
            return counts[path, default: 0]
        }
    }

    /// Forgets every count.
    func reset() {
        lock.withLock { counts.removeAll() }
    }

    /// How many requests `path` got.
    func requests(_ path: String) -> Int {
        lock.withLock { counts[path, default: 0] }
    }
}
