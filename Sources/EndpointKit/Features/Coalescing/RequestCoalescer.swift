import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A sender in front of the client's transport that lets identical requests in flight share one
/// transfer, for the sends that ask for it (``APIRequest/coalescesIdenticalRequests``,
/// ``APIClient/Configuration/coalescesIdenticalRequests``).
///
/// Two requests are identical when they come from the same endpoint type and have the same
/// method, URL, header fields, body, timeouts and size cap; requests with a body file, a body
/// stream, a download target, a streamed response or a redirect handler never share. (The endpoint type is part of
/// it so that test doubles answering by endpoint, such as `StubTransport`, see every endpoint
/// they are asked for.) Every caller keeps its own pipeline (plugins, validation, decoding,
/// retries) and its own completion: only the bytes on the wire are shared. A caller that cancels
/// leaves the transfer to the others; the transfer itself is cancelled only when every caller has
/// cancelled. Once a transfer has completed, the next identical request starts a new one (nothing
/// is cached).
///
/// Most requests never meet an identical one, so a request costs one lock and one table entry
/// under its address (endpoint type, method, URL); headers and bodies are compared only when
/// another transfer to the same address is in flight.
final class RequestCoalescer: AttemptSender {
    private struct State {
        var flights: [Address: [Flight]] = [:]
        var nextSubscriber: UInt64 = 0
    }

    private let next: any AttemptSender
    /// The table and every flight's callers, behind one lock.
    private let state = Locked(State())

    /// - Parameter next: Where shared transfers go: the client's transport.
    init(next: any AttemptSender) {
        self.next = next
    }

    func send<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        guard request.bodyFile == nil, request.download == nil, request.bodySink == nil,
            request.redirectHandler == nil, let url = request.urlRequest.url
        else {
            return next.send(request, for: endpoint, completion: completion)
        }
        let address = Address(endpoint: ObjectIdentifier(Request.self), method: endpoint.method, url: url)
        let (flight, id, isNew) = state.withLock { state -> (Flight, UInt64, Bool) in
            state.nextSubscriber &+= 1
            let id = state.nextSubscriber
            let subscriber = Subscriber(id: id, completion: completion, onProgress: request.onProgress)
            if let waiting = state.flights[address],
                let flight = waiting.first(where: { !$0.isClosed && $0.carries(request) })
            {
                flight.subscribers.append(subscriber)
                return (flight, id, false)
            }
            let flight = Flight(request: request, subscriber: subscriber)
            state.flights[address, default: []].append(flight)
            return (flight, id, true)
        }
        if isNew { start(flight, at: address, for: endpoint) }
        return Ticket(coalescer: self, flight: flight, address: address, subscriber: id)
    }

    private func start<Request: APIRequest>(_ flight: Flight, at address: Address, for endpoint: Request) {
        var shared = flight.request
        shared.onProgress = { [self] progress in report(progress, of: flight) }
        let task = next.send(shared, for: endpoint) { [self] outcome in
            let subscribers = state.withLock { state -> [Subscriber] in
                close(flight, at: address, in: &state)
                defer { flight.subscribers = [] }
                return flight.subscribers
            }
            for subscriber in subscribers { subscriber.completion(outcome) }
        }
        let cancelNow = state.withLock { state -> Bool in
            guard !flight.isClosed else { return true }
            flight.task = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// One caller leaves: it completes as cancelled; the transfer is cancelled when it was the last.
    fileprivate func cancel(_ id: UInt64, of flight: Flight, at address: Address) {
        let (subscriber, task) = state.withLock { state -> (Subscriber?, (any TransportTask)?) in
            guard let index = flight.subscribers.firstIndex(where: { $0.id == id }) else { return (nil, nil) }
            let subscriber = flight.subscribers.remove(at: index)
            guard flight.subscribers.isEmpty else { return (subscriber, nil) }
            let task = flight.task
            close(flight, at: address, in: &state)
            return (subscriber, task)
        }
        task?.cancel()
        subscriber?.completion(.failure(.cancelled()))
    }

    /// Takes `flight` out of the table; no one joins it from now on. Under the lock. Its task is
    /// let go: the task's completion holds the flight, and the two must not keep each other alive.
    private func close(_ flight: Flight, at address: Address, in state: inout State) {
        guard !flight.isClosed else { return }
        flight.isClosed = true
        flight.task = nil
        guard var waiting = state.flights[address] else { return }
        waiting.removeAll { $0 === flight }
        state.flights[address] = waiting.isEmpty ? nil : waiting
    }

    private func report(_ progress: TransferProgress, of flight: Flight) {
        let handlers = state.withLock { _ in flight.subscribers.compactMap(\.onProgress) }
        for handler in handlers { handler(progress) }
    }

    /// Where a transfer goes: what is hashed to find a transfer to share.
    struct Address: Hashable {
        let endpoint: ObjectIdentifier
        let method: HTTPMethod
        let url: URL
    }

    /// One caller of a shared transfer.
    struct Subscriber: Sendable {
        let id: UInt64
        let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
        let onProgress: (@Sendable (TransferProgress) -> Void)?
    }

    /// One shared transfer and its callers. Its variables change only under the coalescer's lock.
    final class Flight: @unchecked Sendable {
        /// The request the transfer was started with.
        let request: TransportRequest
        var subscribers: [Subscriber]
        var task: (any TransportTask)?
        /// Completed or cancelled: no one may join.
        var isClosed = false

        init(request: TransportRequest, subscriber: Subscriber) {
            self.request = request
            subscribers = [subscriber]
        }

        /// Whether `other`, sent to the same address, is identical: header fields (names compared
        /// case-insensitively), body, timeouts and size cap; a body stream never shares.
        func carries(_ other: TransportRequest) -> Bool {
            let mine = request.urlRequest
            let theirs = other.urlRequest
            guard request.timeouts == other.timeouts, request.maximumResponseSize == other.maximumResponseSize,
                mine.httpBody == theirs.httpBody, mine.httpBodyStream == nil, theirs.httpBodyStream == nil
            else { return false }
            return Self.fields(of: mine) == Self.fields(of: theirs)
        }

        private static func fields(of request: URLRequest) -> [String: String] {
            var fields: [String: String] = [:]
            for (name, value) in request.allHTTPHeaderFields ?? [:] { fields[name.lowercased()] = value }
            return fields
        }
    }

    /// What a caller holds: cancelling it cancels this caller only.
    private struct Ticket: TransportTask {
        let coalescer: RequestCoalescer
        let flight: Flight
        let address: Address
        let subscriber: UInt64

        func cancel() { coalescer.cancel(subscriber, of: flight, at: address) }
    }
}
