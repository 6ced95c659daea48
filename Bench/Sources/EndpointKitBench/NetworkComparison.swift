import Dispatch
import EndpointKit
import Foundation

/// EndpointKit and the URLSession baseline making the same `GET /model` requests, plus curl
/// where installed: the contenders of scenarios 1, 2 and 6.
struct NetworkComparison {
    /// EndpointKit, the baseline, then curl if installed.
    let contenders: [Contender]
    /// EndpointKit's transport, to check that its registry of transfers ends empty.
    let transport: URLSessionTransport

    /// - Parameters:
    ///   - count: Requests per run.
    ///   - width: Requests in flight (also the connections per host of both sessions); `nil` to
    ///     send one after the other.
    ///   - delegateReference: Whether to add ``DelegateSessionBaseline`` and EndpointKit+libcurl on
    ///     its executor as references.
    init(context: BenchContext, count: Int, width: Int?, delegateReference: Bool = true) throws {
        let baseURL = try context.modelBaseURL()
        let client = BenchClients.endpointKit(baseURL: baseURL, maxConnections: width)
        let baseline = BenchClients.baseline(baseURL: baseURL, maxConnections: width)
        guard let transport = client.configuration.transport as? URLSessionTransport else {
            throw BenchError.requestFailed("EndpointKit's client has no URLSessionTransport")
        }
        self.transport = transport

        func loop(_ requests: Int, _ request: @escaping @Sendable () async throws -> Void) async throws {
            if let width {
                try await RequestLoop.windowed(requests, width: width, request)
            } else {
                try await RequestLoop.sequential(requests, request)
            }
        }
        let warmup = context.options.warmupRequests
        /// One `GET /model` by `fetch`, failing unless it decoded the bench's user.
        func checked(
            _ name: String, _ fetch: @escaping @Sendable () async throws -> UserModel
        ) -> @Sendable () async throws -> Void {
            {
                let user = try await fetch()
                guard user.id == 42 else { throw BenchError.requestFailed("\(name) decoded \(user)") }
            }
        }
        /// A contender that warms up with `warmup` calls of `request`, then makes `count` per run.
        func contender(_ name: String, _ request: @escaping @Sendable () async throws -> Void) -> Contender {
            Contender(
                name: name, warmUp: { try await loop(warmup, request) },
                run: {
                    try await loop(count, request)
                    return nil
                })
        }
        var contenders = [
            contender("EndpointKit", checked("EndpointKit") { try await client.value(for: GetUserModel()) }),
            contender("URLSession+JSONDecoder", checked("URLSession") { try await baseline.user() }),
        ]
        if delegateReference {
            let delegateBaseline = DelegateSessionBaseline(
                baseURL: baseURL, configuration: BenchClients.sessionConfiguration(maxConnections: width))
            contenders.append(
                contender("URLSession delegate", checked("URLSession delegate") { try await delegateBaseline.user() }))
        }
        #if os(Linux)
        // EndpointKit on its libcurl transport (the Linux default), as a reference to URLSession.
        if let curlTransport = try? CurlTransport() {
            let curlClient = APIClient(
                configuration: APIClient.Configuration(baseURL: baseURL, transport: curlTransport))
            let curlRequest = checked(LibcurlRow.endpointKitName) { try await curlClient.value(for: GetUserModel()) }
            contenders.append(contender(LibcurlRow.endpointKitName, curlRequest))
            // libcurl from Swift with nothing else, the floor; and the same client with the
            // requests' code on the transport's thread (opt-in).
            if delegateReference, let bare = BareCurlClient(url: baseURL.appendingPathComponent("model")) {
                contenders.append(
                    contender(LibcurlRow.bareName, checked(LibcurlRow.bareName) { try await bare.user() }))
            }
            if delegateReference {
                let executor = curlTransport.executor
                contenders.append(
                    Contender(
                        name: LibcurlRow.executorName,
                        warmUp: {
                            try await withTaskExecutorPreference(executor) { try await loop(warmup, curlRequest) }
                        },
                        run: {
                            try await withTaskExecutorPreference(executor) { try await loop(count, curlRequest) }
                            return nil
                        }))
            }
        }
        #endif
        if let curl = context.curl {
            contenders.append(
                try curl.contender(url: baseURL.appendingPathComponent("model"), count: count, parallel: width))
        }
        self.contenders = contenders
    }
}
