import Dispatch
@_spi(Internal) import EndpointKit
import Foundation

/// Hands every result to the app once: to the listeners attached when it comes (the
/// ``Outbox/onResult(_:)`` closure and the delegate on the main actor, every ``Outbox/results``
/// iteration in progress), or, while none is, to the first one that attaches. A result counts as
/// handed over when a listener got it: only then is its file removed.
final class ResultDispatcher: Sendable {
    typealias Handler = @MainActor @Sendable (OutboxResult) -> Void
    typealias Decoder = @Sendable (DecodingContext) throws -> any Sendable

    /// One result on its way: its file is removed the first time a listener gets it.
    final class Ticket: Sendable {
        let finished: FinishedEntry
        private let handed = Locked(false)

        init(_ finished: FinishedEntry) { self.finished = finished }

        var isHandedOver: Bool { handed.withLock { $0 } }

        /// Marks the result handed over; `true` the first time.
        func markHandedOver() -> Bool {
            handed.withLock { handed in
                defer { handed = true }
                return !handed
            }
        }
    }

    private struct State {
        var backlog: [Ticket] = []
        var handler: Handler?
        weak var delegate: (any OutboxDelegate)?
        weak var outbox: Outbox?
        var iterations: [ObjectIdentifier: ResultBuffer] = [:]
        var decoders: [String: Decoder] = [:]
        var stopped = false
    }

    private let state = Locked(State())
    private let configuration: APIClient.Configuration
    /// Removes the file of a result handed over (off the main thread).
    private let remove: @Sendable (UUID) -> Void

    init(client: APIClient, remove: @escaping @Sendable (UUID) -> Void) {
        configuration = client.configuration
        self.remove = remove
    }

    func setOutbox(_ outbox: Outbox) { state.withLock { $0.outbox = outbox } }

    func register(_ decoder: @escaping Decoder, forKind kind: String) {
        state.withLock { $0.decoders[kind] = decoder }
    }

    // MARK: - Results coming in

    /// A result to hand over.
    func deliver(_ finished: FinishedEntry) {
        let ticket = Ticket(finished)
        let (toMain, buffers) = state.withLock { state -> (Bool, [ResultBuffer]) in
            let toMain = state.handler != nil || state.delegate != nil
            if !toMain, state.iterations.isEmpty { state.backlog.append(ticket) }
            return (toMain, Array(state.iterations.values))
        }
        for buffer in buffers { buffer.push([ticket]) }
        if toMain { handOnMain([ticket]) }
    }

    /// Takes back a result not handed over yet (a dead letter the app retried before hearing it).
    func withdraw(_ id: UUID) {
        state.withLock { $0.backlog.removeAll { $0.finished.id == id } }
    }

    // MARK: - Listeners

    func setHandler(_ handler: Handler?) {
        let backlog = state.withLock { state -> [Ticket] in
            state.handler = handler
            return handler == nil ? [] : takeBacklog(&state)
        }
        if !backlog.isEmpty { handOnMain(backlog) }
    }

    var delegate: (any OutboxDelegate)? { state.withLock { $0.delegate } }

    func setDelegate(_ delegate: (any OutboxDelegate)?) {
        let backlog = state.withLock { state -> [Ticket] in
            state.delegate = delegate
            return delegate == nil ? [] : takeBacklog(&state)
        }
        if !backlog.isEmpty { handOnMain(backlog) }
    }

    /// A new iteration of ``Outbox/results``: it starts with the results nobody has heard.
    func startIteration() -> ResultBuffer {
        let buffer = ResultBuffer()
        let (backlog, stopped) = state.withLock { state -> ([Ticket], Bool) in
            state.iterations[ObjectIdentifier(buffer)] = buffer
            return (takeBacklog(&state), state.stopped)
        }
        buffer.push(backlog)
        if stopped { buffer.finish() }
        return buffer
    }

    /// An iteration ended: what it had not taken yet goes back to the backlog.
    func endIteration(_ buffer: ResultBuffer) {
        let left = buffer.finish()
        state.withLock { state in
            state.iterations.removeValue(forKey: ObjectIdentifier(buffer))
            state.backlog.insert(contentsOf: left.filter { !$0.isHandedOver }, at: 0)
        }
    }

    /// Ends every iteration (the outbox is gone).
    func stop() {
        let buffers = state.withLock { state -> [ResultBuffer] in
            state.stopped = true
            return Array(state.iterations.values)
        }
        for buffer in buffers { buffer.finish() }
    }

    private func takeBacklog(_ state: inout State) -> [Ticket] {
        defer { state.backlog = [] }
        return state.backlog.filter { !$0.isHandedOver }
    }

    // MARK: - Handing over

    /// The result of a ticket as the app sees it, marked handed over.
    func handOver(_ ticket: Ticket) -> OutboxResult {
        let result = makeResult(ticket.finished)
        if ticket.markHandedOver() { remove(ticket.finished.id) }
        return result
    }

    private func handOnMain(_ tickets: [Ticket]) {
        MainQueue.async { [self] in
            let (handler, delegate, outbox) = state.withLock { ($0.handler, $0.delegate, $0.outbox) }
            guard handler != nil || (delegate != nil && outbox != nil) else {
                // The listeners left meanwhile: keep the results for the next one.
                return state.withLock { state in
                    if state.iterations.isEmpty { state.backlog += tickets.filter { !$0.isHandedOver } }
                }
            }
            for ticket in tickets {
                let result = handOver(ticket)
                handler?(result)
                if let delegate, let outbox { delegate.outbox(outbox, didFinish: result) }
            }
        }
    }

    private func makeResult(_ finished: FinishedEntry) -> OutboxResult {
        let outcome: OutboxResult.Outcome
        switch finished.outcome {
        case .succeeded(let metadata): outcome = .succeeded(decode(metadata, kind: finished.kind))
        case .failedOnServer(let failure): outcome = .failedOnServer(failure)
        case .deadLettered(let failure): outcome = .deadLettered(failure)
        case .damaged(let file, let reason): outcome = .damaged(file: file, reason: reason)
        }
        return OutboxResult(entryID: OutboxEntry.ID(finished.id), kind: finished.kind, outcome: outcome)
    }

    private func decode(_ metadata: ResponseMetadata, kind: String) -> OutboxResponse {
        guard let decoder = state.withLock({ $0.decoders[kind] }) else {
            return OutboxResponse(metadata: metadata, value: nil, decodingError: nil)
        }
        let context = DecodingContext(
            metadata: metadata, decoder: configuration.decoder, envelope: configuration.envelope, fileURL: nil)
        do {
            return OutboxResponse(metadata: metadata, value: try decoder(context), decodingError: nil)
        } catch {
            let failure = TransportError(
                .decodingFailed, message: "The response could not be decoded: \(error.readableDescription)",
                underlyingError: error, metadata: metadata)
            return OutboxResponse(metadata: metadata, value: nil, decodingError: failure)
        }
    }
}
