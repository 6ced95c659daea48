import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves a built `URLRequest` over the network and hands back the raw response.
///
/// The seam between ``APIClient`` and the network. ``URLSessionTransport`` is the default;
/// tests and other HTTP stacks plug in here.
///
/// A transport must call `completion` exactly once per ``execute(_:completion:)``, also after
/// ``TransportTask/cancel()`` (with ``TransportError/Reason/cancelled``), and must enforce
/// ``TransportRequest/deadline`` as a total deadline ending in ``TransportError/Reason/timedOut``.
public protocol Transport: Sendable {
    /// Starts a transfer.
    /// - Parameters:
    ///   - request: The request and its limits.
    ///   - completion: Called once, on any thread, with the response or a classified error.
    /// - Returns: A handle that cancels the transfer.
    func execute(
        _ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask
}

/// A transfer in progress.
public protocol TransportTask: Sendable {
    /// Cancels the transfer; the completion reports ``TransportError/Reason/cancelled`` unless it
    /// has already been called.
    func cancel()
}

/// What a transport is asked to do.
public struct TransportRequest: Sendable {
    /// The request to send.
    public var urlRequest: URLRequest
    /// The total time allowed, from start to the end of the body; `nil` for none.
    public var deadline: TimeInterval?
    /// The largest body accepted in memory, in bytes; a larger body fails with
    /// ``TransportError/Reason/responseTooLarge(limit:)``.
    public var maximumResponseSize: Int
    /// The transfer's priority.
    public var priority: RequestPriority

    /// Creates a transport request.
    public init(
        urlRequest: URLRequest, deadline: TimeInterval?, maximumResponseSize: Int, priority: RequestPriority = .normal
    ) {
        self.urlRequest = urlRequest
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
        self.priority = priority
    }
}

/// What a transport hands back: the HTTP response head and the whole body.
public struct TransportResponse: Sendable {
    /// The HTTP response (after redirects).
    public var response: HTTPURLResponse
    /// The body.
    public var data: Data

    /// Creates a transport response.
    public init(response: HTTPURLResponse, data: Data) {
        self.response = response
        self.data = data
    }
}
