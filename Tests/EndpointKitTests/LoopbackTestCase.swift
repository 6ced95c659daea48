import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Base class for tests over real HTTP: a fresh loopback server per test and a client aimed at it.
class LoopbackTestCase: XCTestCase {
    var server: TestServer!
    var client: APIClient!

    override func setUpWithError() throws {
        server = try TestServer()
        client = makeClient()
    }

    override func tearDown() {
        server?.stop()
        server = nil
        client = nil
    }

    func makeClient(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        var configuration = APIClient.Configuration(baseURL: server.baseURL)
        configuration.timeouts.total = 10
        configure(&configuration)
        return APIClient(configuration: configuration)
    }

    /// Sends through the closure API and waits (bounded) for the single completion.
    func sendAndWait<R: APIRequest>(
        _ request: R, client: APIClient? = nil, timeout: TimeInterval = 10
    ) -> APIResult<R.Response>? {
        let done = expectation(description: "completion")
        let box = ResultBox<R.Response>()
        (client ?? self.client).send(request) { result in
            box.append(result)
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return box.results.first
    }
}

/// Collects results from any thread.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [APIResult<Value>] = []

    func append(_ result: APIResult<Value>) { lock.withLock { stored.append(result) } }
    var results: [APIResult<Value>] { lock.withLock { stored } }
}

/// A counter shared across threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func increment(_ key: String = "") { lock.withLock { counts[key, default: 0] += 1 } }
    func value(_ key: String = "") -> Int { lock.withLock { counts[key, default: 0] } }
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
}

extension APIResult {
    var transportReason: TransportError.Reason? {
        if case .transportError(let error) = self { return error.reason }
        return nil
    }

    var serverFailure: ServerFailure? {
        if case .serverFailure(let failure) = self { return failure }
        return nil
    }
}
