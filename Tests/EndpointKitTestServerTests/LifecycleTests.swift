import EndpointKitTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class LifecycleTests: XCTestCase {
    func testSixtyFourConcurrentURLSessionRequests() throws {
        let server = try TestServer()
        defer { server.stop() }
        server.route("/work") { request in
            Thread.sleep(forTimeInterval: 0.05)
            return .echo(request)
        }
        let session = makeSession(maxConnections: 64)
        let successes = Box(0)
        let group = DispatchGroup()
        for index in 0..<64 {
            group.enter()
            session.dataTask(with: server.url("/work?i=\(index)")) { data, response, error in
                if error == nil, (response as? HTTPURLResponse)?.statusCode == 200, data?.isEmpty == false {
                    successes.update { $0 += 1 }
                }
                group.leave()
            }.resume()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(successes.get(), 64)
        XCTAssertEqual(server.requestCount, 64)
        XCTAssertGreaterThan(server.connectionCount, 1)
    }

    func testSixtyFourConcurrentKeepAliveSockets() throws {
        let server = try TestServer()
        defer { server.stop() }
        let clients = try (0..<64).map { _ in try RawClient(port: server.port) }
        for round in 0..<3 {
            for (index, client) in clients.enumerated() {
                client.send("GET /echo?c=\(index)&r=\(round) HTTP/1.1\r\n\r\n")
            }
            for client in clients {
                XCTAssertEqual(client.readResponse()?.status, 200)
            }
        }
        XCTAssertEqual(server.connectionCount, 64)
        XCTAssertEqual(server.requestCount, 64 * 3)
        XCTAssertEqual(server.openConnectionCount, 64)
    }

    func testStopReturnsPromptlyWithStalledConnections() throws {
        let server = try TestServer()
        let stalled = try RawClient(port: server.port)
        stalled.send("GET /fault/stall HTTP/1.1\r\n\r\n")
        let afterHeaders = try RawClient(port: server.port)
        afterHeaders.send("GET /fault/stall-after-headers HTTP/1.1\r\n\r\n")
        let delayed = try RawClient(port: server.port)
        delayed.send("GET /delay/60000 HTTP/1.1\r\n\r\n")
        let dripping = try RawClient(port: server.port)
        dripping.send("GET /fault/drip?chunks=100&delay=1000 HTTP/1.1\r\n\r\n")
        let idle = try RawClient(port: server.port)
        let halfRequest = try RawClient(port: server.port)
        halfRequest.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\nabc")
        XCTAssertTrue(server.waitForRequestCount(atLeast: 4, timeout: 3))
        _ = idle

        server.stop()
        XCTAssertEqual(server.liveThreadCount, 0, "every thread ended (stop did not give up waiting)")
        XCTAssertEqual(server.openConnectionCount, 0)
        for client in [stalled, delayed, halfRequest] {
            XCTAssertTrue(client.isClosedByPeer())
        }
        XCTAssertThrowsError(try RawClient(port: server.port), "the listener is closed")
        server.stop()  // idempotent
    }

    func testStopFromInsideAHandlerDoesNotDeadlock() throws {
        let server = try TestServer()
        server.route("/shutdown") { [weak server] _ in
            server?.stop()
            return .text("bye")
        }
        let client = try RawClient(port: server.port)
        client.send("GET /shutdown HTTP/1.1\r\n\r\n")
        _ = client.readToEnd()
        server.stop()
        XCTAssertEqual(server.liveThreadCount, 0, "every thread ended (stop did not give up waiting)")
    }

    func testDeinitStopsTheServer() throws {
        var server: TestServer? = try TestServer()
        let port = try XCTUnwrap(server?.port)
        let client = try RawClient(port: port)
        client.send("GET /fault/stall HTTP/1.1\r\n\r\n")
        XCTAssertTrue(server?.waitForRequestCount(atLeast: 1, timeout: 3) ?? false)
        server = nil
        XCTAssertTrue(client.isClosedByPeer())
        XCTAssertThrowsError(try RawClient(port: port))
    }

    func testManyServersCanBeCreatedAndStopped() throws {
        for _ in 0..<20 {
            let server = try TestServer()
            let client = try RawClient(port: server.port)
            client.send("GET /status/200 HTTP/1.1\r\n\r\n")
            XCTAssertEqual(client.readResponse()?.status, 200)
            server.stop()
        }
    }

    func testBindingAPortInUseThrowsTypedError() throws {
        let server = try TestServer()
        defer { server.stop() }
        XCTAssertThrowsError(try TestServer(port: server.port)) { error in
            guard case .bindFailed(let port, _) = error as? TestServerError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(port, server.port)
        }
        let explicit = try TestServer(port: 0)
        XCTAssertNotEqual(explicit.port, 0)
        XCTAssertEqual(explicit.baseURL.absoluteString, "http://127.0.0.1:\(explicit.port)")
        explicit.stop()
    }
}
