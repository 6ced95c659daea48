import Foundation

/// A write endpoint that honours `Idempotency-Key` as the IETF httpapi draft asks, and counts every
/// request it receives per key: what a test needs to check that a client's writes are applied
/// exactly once however often they are sent.
///
/// The first request with a key is applied (recorded in ``applied``) and answered `201` with
/// `{"key": ..., "order": N}`, N counting applications from 1; that answer is stored, and every
/// later request with the key gets it again without being applied. A key reused with another body
/// gets `422`; a request without a key gets `400`. A refusal from ``refuse(_:)`` is not stored, so
/// the same key may be applied once the cause is gone (as Stripe does for failed validation).
///
/// ```swift
/// let ledger = IdempotencyLedger()
/// ledger.install(on: server, at: "/comments")
/// // ... send ...
/// XCTAssertEqual(ledger.applied.count, 3)
/// XCTAssertEqual(ledger.receipts.count, 5)   // two were sent again (and not applied again)
/// ```
public final class IdempotencyLedger: Sendable {
    /// One request the endpoint received.
    public struct Receipt: Sendable {
        /// Its `Idempotency-Key`, without the quotes of a structured-field string; empty when it had
        /// none.
        public let key: String
        /// The request.
        public let request: TestRequest
        /// How many requests with this key came before it, plus one.
        public let number: Int
        /// Whether this request applied the write (the first one with its key that was not refused).
        public let applied: Bool
        /// The status it was answered with.
        public let status: Int
    }

    /// A write applied.
    public struct Application: Sendable {
        /// The key it was applied under.
        public let key: String
        /// The body of the request that applied it.
        public let body: Data
    }

    private struct State {
        var receipts: [Receipt] = []
        var applied: [Application] = []
        var answers: [String: (body: Data, response: TestResponse)] = [:]
        var refusal: (@Sendable (TestRequest) -> Int?)?
        var observer: (@Sendable (Receipt) -> Void)?
    }

    private let state = Locked(State())

    /// Creates an empty ledger.
    public init() {}

    /// Serves the endpoint at `path` (an exact path) on `server`.
    public func install(on server: TestServer, at path: String) {
        server.route(path) { [self] request in answer(request) }
    }

    /// Refuses, with the status `rule` returns, each request it returns one for (`nil` to apply
    /// it); `nil` refuses none. A refusal is not stored under the key.
    public func refuse(_ rule: (@Sendable (TestRequest) -> Int?)?) {
        state.withLock { $0.refusal = rule }
    }

    /// Calls `observer` with every receipt, on the server's thread, after it was counted (and
    /// applied) and before it is answered; `nil` stops. The observer may block: the answer waits.
    public func observe(_ observer: (@Sendable (Receipt) -> Void)?) {
        state.withLock { $0.observer = observer }
    }

    /// Every request received, in order.
    public var receipts: [Receipt] { state.withLock { $0.receipts } }

    /// Every write applied, in order.
    public var applied: [Application] { state.withLock { $0.applied } }

    /// How many requests came with `key`.
    public func receiptCount(forKey key: String) -> Int {
        state.withLock { $0.receipts.filter { $0.key == key }.count }
    }

    /// Blocks until at least `count` writes were applied, or `timeout` seconds pass.
    /// - Returns: whether the count was reached.
    @discardableResult
    public func waitForApplied(count: Int, timeout: TimeInterval) -> Bool {
        state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.applied.count >= count }
    }

    /// Blocks until at least `count` requests were received, or `timeout` seconds pass.
    /// - Returns: whether the count was reached.
    @discardableResult
    public func waitForReceipts(count: Int, timeout: TimeInterval) -> Bool {
        state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.receipts.count >= count }
    }

    private func answer(_ request: TestRequest) -> TestResponse {
        let key = Self.key(in: request)
        let refusal = state.withLock { $0.refusal }
        let refusedWith = key.isEmpty ? nil : refusal?(request)
        let (receipt, response, observer) = state.mutate {
            state -> (Receipt, TestResponse, (@Sendable (Receipt) -> Void)?) in
            let number = state.receipts.filter { $0.key == key }.count + 1
            var applied = false
            let response: TestResponse
            var status: Int
            if key.isEmpty {
                (response, status) = (.json(["error": "Idempotency-Key is missing"], status: 400), 400)
            } else if let stored = state.answers[key] {
                let same = stored.body == request.body
                status = same ? 201 : 422
                response =
                    same ? stored.response : .json(["error": "Idempotency-Key reused with another body"], status: 422)
            } else if let refusedWith {
                (response, status) = (.json(["error": "refused"], status: refusedWith), refusedWith)
            } else {
                applied = true
                state.applied.append(Application(key: key, body: request.body))
                status = 201
                response = .json(["key": key, "order": state.applied.count], status: 201)
                state.answers[key] = (request.body, response)
            }
            let receipt = Receipt(key: key, request: request, number: number, applied: applied, status: status)
            state.receipts.append(receipt)
            return (receipt, response, state.observer)
        }
        observer?(receipt)
        return response
    }

    /// The key of a request: the field's value without the double quotes of an sf-string.
    private static func key(in request: TestRequest) -> String {
        guard var value = request.header("Idempotency-Key")?.trimmingCharacters(in: .whitespaces) else { return "" }
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }
}
