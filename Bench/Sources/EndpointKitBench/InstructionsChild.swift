#if os(Linux) && canImport(CCurlShimAPI)
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
        alarm(UInt32(InstructionsMode.timeoutSeconds(requests: count, warmup: warmup)) + 30)
        guard let text = options.url, let baseURL = URL(string: text) else {
            FileHandle.standardError.write(Data("--instructions-child needs --url\n".utf8))
            return 2
        }
        do {
            let request = try makeRequest(client, baseURL: baseURL)
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
        _ client: InstructionsMode.Client, baseURL: URL
    ) throws -> @Sendable () async throws -> Void {
        let expected = try JSONDecoder().decode(UserModel.self, from: Payloads.user)
        let fetch: @Sendable () async throws -> UserModel
        switch client {
        case .endpointkit:
            // As scenarios 1 and 2 make it: the transport's defaults, coalescing off.
            let transport = try CurlTransport()
            let api = APIClient(configuration: APIClient.Configuration(baseURL: baseURL, transport: transport))
            fetch = { try await api.value(for: GetUserModel()) }
        case .bare:
            guard let bare = BareCurlClient(url: baseURL.appendingPathComponent("model")) else {
                throw BenchError.unavailable("libcurl cannot be loaded")
            }
            fetch = { try await bare.user() }
        }
        return {
            let user = try await fetch()
            guard user == expected else { throw BenchError.requestFailed("\(client.displayName) decoded \(user)") }
        }
    }
}
#endif
