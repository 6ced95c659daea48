@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport the soak runs over.
enum SoakTransport: String, CaseIterable, Sendable {
    /// ``CurlTransport``, the default on Linux.
    case curl
    /// ``URLSessionTransport``.
    case urlSession = "urlsession"

    /// The transports that exist on this platform.
    static var available: [SoakTransport] {
        #if os(Linux)
        return [.curl, .urlSession]
        #else
        return [.urlSession]
        #endif
    }

    /// The type's name, for the summary.
    var name: String { self == .curl ? "CurlTransport" : "URLSessionTransport" }

    /// Memory the platform's HTTP stack keeps per request and never returns, which the soak
    /// allows for: URLSession on Linux (FoundationNetworking, Swift 6.3.1) keeps about 200 bytes
    /// a request even without EndpointKit (a plain `dataTask(with:completionHandler:)` loop: +4.3
    /// MiB after 20,000 requests, +11.1 MiB after 60,000, also after `invalidateAndCancel()`);
    /// 256 allows for that with some headroom. Nothing for libcurl.
    var retainedBytesPerRequest: Int {
        #if canImport(FoundationNetworking)
        return self == .urlSession ? 256 : 0
        #else
        return 0
        #endif
    }

    /// A new transport, allowing `connections` connections to the server (URLSession's default is
    /// 6 per host, which would queue most of the requests in flight inside the session).
    func make(connections: Int) throws(BenchError) -> any Transport {
        switch self {
        case .urlSession:
            return URLSessionTransport(configuration: BenchClients.sessionConfiguration(maxConnections: connections))
        case .curl:
            #if os(Linux)
            do {
                return try CurlTransport()
            } catch {
                throw .unavailable("CurlTransport: \(error)")
            }
            #else
            throw .unavailable("CurlTransport exists on Linux only")
            #endif
        }
    }

    /// The transport's own registry: transfers it still holds.
    static func activeTransfers(of transport: any Transport) -> Int? {
        #if os(Linux)
        if let curl = transport as? CurlTransport { return curl.activeTransferCount }
        #endif
        return (transport as? URLSessionTransport)?.activeTransferCount
    }
}
