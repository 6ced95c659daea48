import Dispatch
import EndpointKit
import EndpointKitStubs
import EndpointKitTestServer
import Foundation

// endpointkit-demo: shows a success, a server failure and a transport error through a closure, a
// delegate and async/await, over real HTTP. With no arguments it talks to an embedded loopback
// server; `--base-url URL` points it at a real httpbin instead.

@MainActor
final class StatusScreen: APIRequestDelegate {
    var finished: CheckedContinuation<String, Never>?

    func request<R: APIRequest>(_ request: R, didSucceedWith value: R.Response, metadata: ResponseMetadata) {
        finished?.resume(returning: "unexpected success (HTTP \(metadata.statusCode))")
        finished = nil
    }

    func request<R: APIRequest>(_ request: R, didFailOnServer failure: ServerFailure) {
        let code = (request as? StatusRequest)?.code ?? 0
        finished?.resume(returning: "server failure for /status/\(code): HTTP \(failure.statusCode)")
        finished = nil
    }

    func request<R: APIRequest>(_ request: R, didFailInTransport error: TransportError) {
        finished?.resume(returning: "unexpected transport error: \(error.message)")
        finished = nil
    }
}

func report(_ style: String, _ line: String, ok: Bool) -> Bool {
    print("\(ok ? "✓" : "✗") [\(style)] \(line)")
    return ok
}

var arguments = CommandLine.arguments.dropFirst()
var baseURL: URL?
var embedded: TestServer?
while let argument = arguments.popFirst() {
    switch argument {
    case "--base-url":
        guard let value = arguments.popFirst(), let url = URL(string: value), url.host != nil else {
            print("usage: endpointkit-demo [--base-url URL]")
            exit(2)
        }
        baseURL = url
    case "--connectivity":
        // Prints what ConnectivityMonitor sees here (the tests run it inside a network namespace).
        print(ConnectivityMonitor.probe() == .online ? "online" : "offline")
        exit(0)
    case "--help", "-h":
        print("usage: endpointkit-demo [--base-url URL]   (default: an embedded loopback server)")
        exit(0)
    default:
        print("unknown argument \(argument); usage: endpointkit-demo [--base-url URL]")
        exit(2)
    }
}

if baseURL == nil {
    do {
        let server = try DemoServer.start()
        embedded = server
        baseURL = server.baseURL
    } catch {
        print("could not start the embedded server: \(error)")
        exit(1)
    }
}

let client = APIClient(baseURL: baseURL) { $0.timeouts = Timeouts(connect: 5, idle: 10) }
print(
    "EndpointKit demo against \(baseURL?.absoluteString ?? "?")\(embedded == nil ? "" : " (embedded loopback server)")")
var allOK = true

// 1. Closure: a struct endpoint that succeeds.
let search = await withCheckedContinuation { continuation in
    client.send(SearchRequest(term: "endpoint kit")) { continuation.resume(returning: $0) }
}
switch search {
case .success(let value, let metadata):
    allOK =
        report(
            "closure", "success in \(Int(metadata.elapsed * 1000)) ms: args \(JSONValue.object(value.args))", ok: true)
        && allOK
default:
    allOK = report("closure", "expected success, got \(search)", ok: false) && allOK
}

// 2. Delegate: a subclass endpoint the server refuses.
let screen = StatusScreen()
let statusRequest = StatusRequest(code: 418)
statusRequest.delegate = screen
let delegateLine = await withCheckedContinuation { continuation in
    screen.finished = continuation
    statusRequest.start(with: client)
}
allOK = report("delegate", delegateLine, ok: delegateLine.hasPrefix("server failure")) && allOK

// 3. Async: a transport error (the server is silent longer than the request's 1 s idle timeout).
switch await client.send(SlowRequest()) {
case .transportError(let error) where error.reason == .timedOut:
    allOK = report("async", "transport error: \(error.message)", ok: true) && allOK
case let other:
    allOK = report("async", "expected a timeout, got \(other)", ok: false) && allOK
}

// 4. Async with an envelope: business success, then a business failure.
do {
    let account = try await client.value(
        for: TransferRequest(reply: ["status": 0, "data": ["id": 7, "owner": "Ada", "balance": "12.50"]]))
    allOK =
        report(
            "async", "envelope success: account \(account.id) of \(account.owner), balance \(account.balance)", ok: true
        ) && allOK
} catch {
    allOK = report("async", "expected an account, got \(error)", ok: false) && allOK
}
let refused = await client.send(TransferRequest(reply: ["status": 7, "data": "Insufficient funds"]))
if case .serverFailure(let failure) = refused, failure.kind == .businessStatus {
    allOK =
        report(
            "async", "business failure: code \(failure.code?.description ?? "?"), \(failure.message ?? "")", ok: true)
        && allOK
} else {
    allOK = report("async", "expected a business failure, got \(refused)", ok: false) && allOK
}

// 5. Samples: the same endpoint answered from its declared sample response, with no network.
let sampled = APIClient(
    configuration: .init(
        baseURL: URL(string: "https://api.invalid"), transport: StubTransport(answersFromSamples: true)))
switch await sampled.send(SearchRequest(term: "anything")) {
case .success(let value, _):
    allOK =
        report("samples", "answered from SearchRequest.sampleResponse: args \(JSONValue.object(value.args))", ok: true)
        && allOK
case let other:
    allOK = report("samples", "expected the sample, got \(other)", ok: false) && allOK
}

embedded?.stop()
print(allOK ? "All demo steps behaved as expected." : "Some demo steps did not behave as expected.")
exit(allOK ? 0 : 1)
