@_spi(Internal) import EndpointKit
import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Base class for tests that run once per transport in ``TransportKind/selected`` (URLSession
/// and, on Linux, libcurl), each time with a fresh server, transport and client; failures name
/// the transport.
///
/// (XCTest on Linux runs no inherited test methods in subclasses, and no test twice through
/// `invokeTest`, so one class runs the cases for every transport; this class has no tests.)
class TransportTestCase: LoopbackTestCase {
    /// The transport under test.
    private(set) var kind = TransportKind.urlSession
    var transport: (any Transport)!

    // Server, transport and client are made per transport, in `forEachTransport`.
    override func setUpWithError() throws {}
    override func tearDown() {}

    /// Runs `body` once per selected transport, each time with a fresh server, transport and client.
    func forEachTransport(_ body: () throws -> Void) throws {
        for kind in TransportKind.selected {
            self.kind = kind
            transport = try kind.make()
            try super.setUpWithError()
            defer {
                super.tearDown()
                transport = nil
            }
            try body()
        }
    }

    /// Runs one request on the transport itself (no client), waiting (bounded) for its completion.
    func execute(
        _ urlRequest: URLRequest, timeouts: Timeouts = Timeouts(total: 10), limit: Int = 1 << 26, bodyFile: URL? = nil,
        download: DownloadTarget? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) -> Result<TransportResponse, TransportError>? {
        let done = expectation(description: "transport completion")
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        let request = TransportRequest(
            urlRequest: urlRequest, timeouts: timeouts, maximumResponseSize: limit, bodyFile: bodyFile,
            download: download, onProgress: progress)
        _ = transport.execute(request) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        return box.value
    }

    #if canImport(FoundationNetworking)
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        super.recordFailure(
            withDescription: "[\(kind.name)] \(description)", inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #else
    override func record(_ issue: XCTIssue) {
        var issue = issue
        issue.compactDescription = "[\(kind.name)] \(issue.compactDescription)"
        super.record(issue)
    }
    #endif

    override func makeClient(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        super.makeClient { configuration in
            configuration.transport = self.transport
            configure(&configuration)
        }
    }
}
