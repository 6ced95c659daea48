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

        let endpointKitRequest: @Sendable () async throws -> Void = {
            let user = try await client.value(for: GetUserModel())
            guard user.id == 42 else { throw BenchError.requestFailed("EndpointKit decoded \(user)") }
        }
        let baselineRequest: @Sendable () async throws -> Void = {
            let user = try await baseline.user()
            guard user.id == 42 else { throw BenchError.requestFailed("URLSession decoded \(user)") }
        }
        func loop(_ requests: Int, _ request: @escaping @Sendable () async throws -> Void) async throws {
            if let width {
                try await RequestLoop.windowed(requests, width: width, request)
            } else {
                try await RequestLoop.sequential(requests, request)
            }
        }
        let warmup = context.options.warmupRequests
        var contenders = [
            Contender(
                name: "EndpointKit", warmUp: { try await loop(warmup, endpointKitRequest) },
                run: {
                    try await loop(count, endpointKitRequest)
                    return nil
                }),
            Contender(
                name: "URLSession+JSONDecoder", warmUp: { try await loop(warmup, baselineRequest) },
                run: {
                    try await loop(count, baselineRequest)
                    return nil
                }),
        ]
        if delegateReference {
            let delegateBaseline = DelegateSessionBaseline(
                baseURL: baseURL, configuration: BenchClients.sessionConfiguration(maxConnections: width))
            let delegateRequest: @Sendable () async throws -> Void = {
                let user = try await delegateBaseline.user()
                guard user.id == 42 else { throw BenchError.requestFailed("URLSession delegate decoded \(user)") }
            }
            contenders.append(
                Contender(
                    name: "URLSession delegate", warmUp: { try await loop(warmup, delegateRequest) },
                    run: {
                        try await loop(count, delegateRequest)
                        return nil
                    }))
        }
        #if os(Linux)
        // EndpointKit on its libcurl transport (the Linux default), as a reference to URLSession.
        if let curlTransport = try? CurlTransport() {
            var configuration = APIClient.Configuration(baseURL: baseURL, transport: curlTransport)
            configuration.callbackQueue = DispatchQueue(label: "EndpointKitBench.curl.callbacks")
            let curlClient = APIClient(configuration: configuration)
            let curlRequest: @Sendable () async throws -> Void = {
                let user = try await curlClient.value(for: GetUserModel())
                guard user.id == 42 else { throw BenchError.requestFailed("EndpointKit+libcurl decoded \(user)") }
            }
            contenders.append(
                Contender(
                    name: LibcurlRow.endpointKitName, warmUp: { try await loop(warmup, curlRequest) },
                    run: {
                        try await loop(count, curlRequest)
                        return nil
                    }))
            // The same client with the requests' code on the transport's thread (opt-in), and
            // libcurl from Swift with nothing else, the floor under both.
            let executor = curlTransport.executor
            if delegateReference, let bare = BareCurlClient(url: baseURL.appendingPathComponent("model")) {
                let bareRequest: @Sendable () async throws -> Void = {
                    let user = try await bare.user()
                    guard user.id == 42 else { throw BenchError.requestFailed("bare libcurl decoded \(user)") }
                }
                contenders.append(
                    Contender(
                        name: LibcurlRow.bareName, warmUp: { try await loop(warmup, bareRequest) },
                        run: {
                            try await loop(count, bareRequest)
                            return nil
                        }))
            }
            if delegateReference {
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
