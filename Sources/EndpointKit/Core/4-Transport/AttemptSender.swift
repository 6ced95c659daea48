import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands one attempt to a transport: the client's, or a stage in front of it (coalescing).
package protocol AttemptSender: Sendable {
    /// Starts the transfer of `request`, built from `endpoint`.
    func send<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask
}

/// The client's transport as an ``AttemptSender``: an `EndpointAwareTransport` (a test double)
/// is also told the endpoint; any other transport sees only the transport request.
///
/// A class, made once per client: as an `any AttemptSender` it is one reference, where a struct
/// holding two existentials would be boxed on the heap at every send.
final class TransportSender: AttemptSender {
    let transport: any Transport
    private let endpointAware: (any EndpointAwareTransport)?

    init(_ transport: any Transport) {
        self.transport = transport
        endpointAware = transport as? any EndpointAwareTransport
    }

    func send<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        request.willStart?()
        if let endpointAware { return endpointAware.execute(request, for: endpoint, completion: completion) }
        return transport.execute(request, completion: completion)
    }
}
