import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stage in front of the client's transport that lets identical requests in flight share one
/// transfer (``APIRequest/coalescesIdenticalRequests``).
///
/// Two requests are identical when they come from the same endpoint type and have the same
/// method, URL, header fields, body, timeouts and size cap; requests with a body file or a
/// download target never share. (The endpoint type is part of it so that test doubles answering
/// by endpoint, such as `StubTransport`, see every endpoint they are asked for.) Every caller keeps its
/// own pipeline (plugins, validation, decoding, retries) and its own completion: only the bytes
/// on the wire are shared. A caller that cancels leaves the transfer to the others; the transfer
/// itself is cancelled only when every caller has cancelled. Once a transfer has completed, the
/// next identical request starts a new one (nothing is cached).
final class RequestCoalescer: AttemptSender, RequestStage {
    private let next: any AttemptSender
    private let flights = Locked([Key: Flight]())

    /// - Parameter next: Where shared transfers go: the client's transport.
    init(next: any AttemptSender) {
        self.next = next
    }

    /// Sends through this coalescer instead of straight to the transport.
    func route(_ next: any AttemptSender) -> any AttemptSender { self }

    func send<Request: APIRequest>(
        _ request: TransportRequest, for endpoint: Request,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        guard let key = Key(request, endpoint: ObjectIdentifier(Request.self)) else {
            return next.send(request, for: endpoint, completion: completion)
        }
        let subscriber = Subscriber(completion: completion, onProgress: request.onProgress)
        let (flight, isNew) = flights.withLock { flights -> (Flight, Bool) in
            if let flight = flights[key], flight.add(subscriber) { return (flight, false) }
            let flight = Flight()
            _ = flight.add(subscriber)
            flights[key] = flight
            return (flight, true)
        }
        if isNew { start(flight, for: request, endpoint: endpoint, key: key) }
        return SubscriberTask { [self] in cancel(subscriber, of: flight, key: key) }
    }

    private func start<Request: APIRequest>(
        _ flight: Flight, for request: TransportRequest, endpoint: Request, key: Key
    ) {
        var shared = request
        shared.onProgress = { progress in flight.report(progress) }
        let task = next.send(shared, for: endpoint) { [self] outcome in
            forget(flight, key: key)
            flight.finish(outcome)
        }
        flight.attach(task)
    }

    private func cancel(_ subscriber: Subscriber, of flight: Flight, key: Key) {
        guard let wasLast = flight.remove(subscriber) else { return }
        if wasLast {
            forget(flight, key: key)
            flight.cancelTransfer()
        }
        subscriber.completion(.failure(.cancelled()))
    }

    /// Removes `flight` from the table unless a newer flight has taken its place.
    private func forget(_ flight: Flight, key: Key) {
        flights.withLock { flights in
            if flights[key] === flight { flights[key] = nil }
        }
    }

    /// What makes two transfers the same.
    struct Key: Hashable {
        let endpoint: ObjectIdentifier
        let method: String
        let url: String
        let headers: [String: String]
        let body: Data?
        let timeouts: Timeouts
        let maximumResponseSize: Int

        /// `nil` when the request may not share a transfer (body file, download target, body stream).
        init?(_ request: TransportRequest, endpoint: ObjectIdentifier) {
            let urlRequest = request.urlRequest
            guard request.bodyFile == nil, request.download == nil, urlRequest.httpBodyStream == nil,
                let url = urlRequest.url
            else { return nil }
            self.endpoint = endpoint
            method = urlRequest.httpMethod ?? "GET"
            self.url = url.absoluteString
            var headers: [String: String] = [:]
            for (name, value) in urlRequest.allHTTPHeaderFields ?? [:] { headers[name.lowercased()] = value }
            self.headers = headers
            body = urlRequest.httpBody
            timeouts = request.timeouts
            maximumResponseSize = request.maximumResponseSize
        }
    }

    /// One caller of a shared transfer.
    final class Subscriber: Sendable {
        let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
        let onProgress: (@Sendable (TransferProgress) -> Void)?

        init(
            completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void,
            onProgress: (@Sendable (TransferProgress) -> Void)?
        ) {
            self.completion = completion
            self.onProgress = onProgress
        }
    }

    /// What a caller holds: cancelling it cancels this caller only.
    struct SubscriberTask: TransportTask {
        let onCancel: @Sendable () -> Void

        func cancel() { onCancel() }
    }

    /// One shared transfer and the callers waiting for it.
    final class Flight: Sendable {
        private struct State {
            var subscribers: [ObjectIdentifier: Subscriber] = [:]
            var task: (any TransportTask)?
            var isClosed = false
        }

        private let state = Locked(State())

        /// Adds a caller; `false` when the transfer already completed or was cancelled.
        func add(_ subscriber: Subscriber) -> Bool {
            state.withLock { state in
                guard !state.isClosed else { return false }
                state.subscribers[ObjectIdentifier(subscriber)] = subscriber
                return true
            }
        }

        /// Removes a caller that cancelled: `nil` if it was no longer waiting (the transfer had
        /// completed), otherwise whether it was the last one, which closes the flight.
        func remove(_ subscriber: Subscriber) -> Bool? {
            state.withLock { state -> Bool? in
                guard state.subscribers.removeValue(forKey: ObjectIdentifier(subscriber)) != nil else { return nil }
                guard state.subscribers.isEmpty else { return false }
                state.isClosed = true
                return true
            }
        }

        /// Keeps the transfer's task; cancels it at once if the flight already closed (every
        /// caller left, or the transfer completed and cancelling does nothing).
        func attach(_ task: any TransportTask) {
            let cancelNow = state.withLock { state -> Bool in
                guard !state.isClosed else { return true }
                state.task = task
                return false
            }
            if cancelNow { task.cancel() }
        }

        func cancelTransfer() {
            let task = state.withLock { state -> (any TransportTask)? in
                defer { state.task = nil }
                return state.task
            }
            task?.cancel()
        }

        func report(_ progress: TransferProgress) {
            let handlers = state.withLock { $0.subscribers.values.compactMap(\.onProgress) }
            for handler in handlers { handler(progress) }
        }

        /// Hands the outcome to every caller still waiting, once.
        func finish(_ outcome: Result<TransportResponse, TransportFailure>) {
            let subscribers = state.withLock { state -> [Subscriber] in
                state.isClosed = true
                state.task = nil
                defer { state.subscribers = [:] }
                return Array(state.subscribers.values)
            }
            for subscriber in subscribers { subscriber.completion(outcome) }
        }
    }
}

/// The feature that routes every request that shares identical transfers through the client's
/// ``RequestCoalescer``.
struct CoalescingFeature: ClientFeature {
    let coalescer: RequestCoalescer

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? {
        request.coalescesIdenticalRequests ? coalescer : nil
    }
}
