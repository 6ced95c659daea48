import Foundation

@testable import EndpointKit
@testable import EndpointKitStreaming

/// Holds a send's work until the test opens it, and records where each step of the work ran.
///
/// The test opens the gate only once the send call returned: a step that ran on the caller's
/// thread cannot see it open (it gives up after `patience`, and is recorded as having run before
/// the send returned). While it is not holding (``release()``), steps pass and are not recorded.
final class WorkGate: @unchecked Sendable {
    /// One step of the work.
    struct Step {
        let name: String
        let onMainThread: Bool
        /// Whether it ran on the client's processing queue (see ``markProcessingQueue(of:)``).
        let onProcessingQueue: Bool
        /// Whether the send call had returned (the gate was open) when it ran.
        let afterReturn: Bool
    }

    private static let processingKey = DispatchSpecificKey<Bool>()
    private let condition = NSCondition()
    private var isHolding: Bool
    private var isOpen = false
    private var recorded: [Step] = []
    private var arrivals = 0
    private let patience: TimeInterval

    init(holding: Bool = true, patience: TimeInterval = 5) {
        isHolding = holding
        self.patience = patience
    }

    /// Marks the client's processing queue, so that steps know whether they ran on it.
    static func markProcessingQueue(of client: APIClient) {
        client.processingQueue.setSpecific(key: processingKey, value: true)
    }

    /// Called by the work: waits until the gate is open (at most `patience`), then records.
    func pass(_ name: String) {
        let onMain = Thread.isMainThread
        let onProcessingQueue = DispatchQueue.getSpecific(key: Self.processingKey) ?? false
        condition.lock()
        defer { condition.unlock() }
        guard isHolding else { return }
        arrivals += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: patience)
        while !isOpen, condition.wait(until: deadline) {}
        recorded.append(
            Step(name: name, onMainThread: onMain, onProcessingQueue: onProcessingQueue, afterReturn: isOpen))
    }

    /// Waits until a step is waiting at the gate (at most `patience`); whether one is.
    func waitForArrival() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: patience)
        while arrivals == 0, condition.wait(until: deadline) {}
        return arrivals > 0
    }

    /// Waits until the gate is open (at most `patience`); whether it opened.
    func waitUntilOpen() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: patience)
        while !isOpen, condition.wait(until: deadline) {}
        return isOpen
    }

    /// Called by the test once the send returned.
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Starts holding and recording (closed).
    func hold() {
        condition.lock()
        isHolding = true
        isOpen = false
        recorded = []
        arrivals = 0
        condition.unlock()
    }

    /// Stops holding: steps pass and are not recorded.
    func release() {
        condition.lock()
        isHolding = false
        condition.broadcast()
        condition.unlock()
    }

    var steps: [Step] {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }
}

/// A JSON encoder that passes a gate each time it encodes.
final class GatedEncoder: JSONEncoder, @unchecked Sendable {
    let gate: WorkGate

    init(gate: WorkGate) {
        self.gate = gate
        super.init()
    }

    override func encode<T: Encodable>(_ value: T) throws -> Data {
        gate.pass("encode")
        return try super.encode(value)
    }
}

/// A POST with an `Encodable` body, encoded by the request's own encoder.
struct EncodedPost: APIRequest {
    typealias Response = JSONValue
    struct Payload: Encodable, Sendable {
        var name = "off the caller's thread"
    }

    let encoder: JSONEncoder?
    var path: RequestPath = "/echo"
    var method: HTTPMethod { .post }
    var parameters: RequestParameters { .json(Payload()) }

    init(gate: WorkGate, path: RequestPath = "/echo") {
        encoder = GatedEncoder(gate: gate)
        self.path = path
    }
}

/// The streaming form of ``EncodedPost``: the body is encoded the same way.
struct EncodedStream: StreamingRequest {
    let encoder: JSONEncoder?
    var path: RequestPath { "/lines" }
    var method: HTTPMethod { .post }
    var parameters: RequestParameters { .json(EncodedPost.Payload()) }
    var format: StreamFormat<String> { .lines }

    init(gate: WorkGate) { encoder = GatedEncoder(gate: gate) }
}
