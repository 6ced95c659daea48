#if os(Linux) && canImport(CCurlShimAPI)
import BenchTestServer
import EndpointKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The child of ``InstructionsMode`` (`--instructions-child CLIENT --url URL --requests N --warmup W
/// [--in-flight K]`), run under callgrind: `W` unmeasured and then `N` `GET /model` requests of one
/// client, each decoded and checked as in the network scenarios, then exit.
enum InstructionsChild {
    static func run(_ client: InstructionsMode.Client, _ options: BenchOptions) async -> Int32 {
        let count = options.instructionRequests
        let warmup = options.warmup ?? options.instructionWarmup
        // The parent kills a child that overruns; this bounds one whose parent is gone.
        alarm(UInt32(InstructionsMode.timeoutSeconds(requests: count, warmup: warmup, client: client)) + 30)
        guard let text = options.url, let baseURL = URL(string: text) else {
            FileHandle.standardError.write(Data("--instructions-child needs --url\n".utf8))
            return 2
        }
        do {
            let request = try await makeRequest(client, baseURL: baseURL, options: options)
            let width = options.inFlight
            for requests in [warmup, count] where requests > 0 {
                if let width {
                    try await RequestLoop.windowed(requests, width: width, request)
                } else {
                    try await RequestLoop.sequential(requests, request)
                }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("--instructions-child \(client.rawValue): \(error)\n".utf8))
            return 1
        }
    }

    /// One `GET /model` by `client`, failing unless it decoded the bench's user.
    private static func makeRequest(
        _ client: InstructionsMode.Client, baseURL: URL, options: BenchOptions
    ) async throws -> @Sendable () async throws -> Void {
        let expected = try JSONDecoder().decode(UserModel.self, from: Payloads.user)
        let fetch: @Sendable () async throws -> UserModel
        switch client {
        case .endpointkit:
            // As scenarios 1 and 2 make it: the transport's defaults, coalescing off.
            let transport = try CurlTransport()
            let api = APIClient(configuration: APIClient.Configuration(baseURL: baseURL, transport: transport))
            fetch = { try await api.value(for: GetUserModel()) }
        case .endpointkitURLSession:
            // As scenarios 1 and 2 make it on URLSession: the session's connections per host set to
            // the width, no URL cache.
            let api = BenchClients.endpointKit(baseURL: baseURL, maxConnections: options.inFlight)
            fetch = { try await api.value(for: GetUserModel()) }
        case .urlSession:
            let baseline = BenchClients.baseline(baseURL: baseURL, maxConnections: options.inFlight)
            fetch = { try await baseline.user() }
        case .bare, .bareWithHeaders:
            let lines = client == .bare ? [] : try await endpointKitHeaderLines()
            guard let bare = BareCurlClient(url: baseURL.appendingPathComponent("model"), headerLines: lines) else {
                throw BenchError.unavailable("libcurl cannot be loaded")
            }
            fetch = { try await bare.user() }
        }
        return {
            let user = try await fetch()
            guard user == expected else { throw BenchError.requestFailed("\(client.displayName) decoded \(user)") }
        }
    }

    /// The header lines EndpointKit's transport adds to a plain GET, as they arrive at a server:
    /// one request to the loopback test server's `/echo` (before the measured requests, so its
    /// cost cancels out like the rest of the start-up).
    private static func endpointKitHeaderLines() async throws -> [String] {
        let server = try TestServer()
        defer { server.stop() }
        let transport = try CurlTransport()
        let api = APIClient(configuration: APIClient.Configuration(baseURL: server.baseURL, transport: transport))
        let sent = try await api.value(for: EchoHeaders()).headers
        let names = ["Accept-Encoding", "User-Agent", "Accept-Language"]
        let lines = names.compactMap { name in sent[name.lowercased()].map { "\(name): \($0)" } }
        guard lines.count == names.count else {
            throw BenchError.requestFailed("EndpointKit sent \(sent.keys.sorted()), not all of \(names)")
        }
        return lines
    }
}

/// `GET /echo` of the test server: the request's header fields as it received them.
private struct EchoHeaders: APIRequest {
    struct Echo: Decodable, Sendable {
        let headers: [String: String]
    }

    typealias Response = Echo
    var path: RequestPath { "/echo" }
}
#endif
