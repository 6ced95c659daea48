import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes that must reach the server even when the device is offline, a request times out or the
/// app is killed: an order placed on a train, a comment posted in a lift.
///
/// ```swift
/// let outbox = try Outbox(client: client, directory: folder)
/// outbox.register(Comment.self, forKind: "comment")
/// outbox.onResult { result in
///     if case .succeeded(let response) = result.outcome, let comment = response.value(as: Comment.self) {
///         show(comment)
///     }
/// }
/// let id = try outbox.enqueue(Endpoint<Comment>(method: .post, path: "/comments", parameters: .json(draft)), kind: "comment")
/// ```
///
/// `enqueue(_:kind:lane:)` stores the request as the client builds it (before interceptors, so a
/// token is added fresh at each attempt), with its body, and returns once it is on disk. Each
/// entry gets an `Idempotency-Key` sent with every attempt, also after a relaunch, so a server
/// that honours the key applies it once. Entries go out through the same client, its interceptors,
/// plugins and result classification, one lane at a time in order (``defaultLane``, or lanes of
/// your own that run side by side). Offline, a timeout, a lost connection, a 5xx, 408 or 429
/// keep the entry and retry it with backoff (honouring `Retry-After`, early when the
/// ``/EndpointKit/ConnectivityMonitor`` sees the network come back); any other refusal moves it to
/// ``deadLetters``. Each entry's result reaches the app once (``results``, ``onResult(_:)``,
/// ``delegate``), also when it ended while nothing listened.
///
/// Opening an outbox on a directory resumes what the last process left: entries whose send may
/// have reached the server are sent again with their key; a damaged file is moved aside and
/// reported. One outbox at a time may have a directory open. The outbox sends while it exists and
/// the process runs; releasing it stops sending (what was in flight is sent again next time).
/// See Docs/Outbox.md.
public final class Outbox: Sendable {
    /// The lane entries go to unless the enqueue names another: `"default"`.
    public static let defaultLane = "default"
    /// The header that carries each entry's key: `Idempotency-Key`, as the IETF httpapi draft
    /// names it; its value is the key as a structured-field string (in double quotes).
    public static let idempotencyKeyHeader = "Idempotency-Key"

    /// The directory the outbox keeps its entries in.
    public let directory: URL
    let core: OutboxCore

    /// Opens the outbox in `directory` (creating it) and starts sending what it holds.
    /// - Parameters:
    ///   - client: The client entries are built and sent with.
    ///   - directory: Where entries are kept, for example a folder in Application Support; one
    ///     outbox at a time may have it open.
    ///   - configuration: Limits and retries; the defaults by default.
    /// - Throws: ``OutboxError/directoryNotWritable(path:reason:)`` when the directory cannot be
    ///   created or written, ``OutboxError/directoryInUse(path:)`` when another outbox has it open.
    public init(client: APIClient, directory: URL, configuration: Configuration = Configuration()) throws(OutboxError) {
        self.directory = directory
        core = try OutboxCore(client: client, directory: directory, configuration: configuration)
        core.dispatcher.setOutbox(self)
        core.start()
    }

    deinit { core.stop() }

    /// The limits and retry settings.
    public var configuration: Configuration { core.configuration }

    // MARK: - Enqueue

    /// Stores a request to send, and returns once it is on disk (written, flushed, renamed into
    /// place). This blocks the calling thread for a few milliseconds; from async code prefer
    /// the `async` form.
    /// - Parameters:
    ///   - request: The endpoint to send; built now with the client's configuration. Its
    ///     `Idempotency-Key` header, if it sets one, is the entry's key.
    ///   - kind: A name of your own for what the entry is (`"comment"`), given back with its
    ///     result and used to decode its response (``register(_:forKind:)``). Empty by default.
    ///   - lane: The lane; entries of a lane are sent one at a time, in order. ``Outbox/defaultLane``
    ///     by default.
    /// - Returns: The entry's identifier, which its result carries.
    /// - Throws: ``OutboxError``: the outbox is full, the disk is full or not writable, or the
    ///   request cannot be built. Nothing was stored then.
    @discardableResult
    public func enqueue<Request: APIRequest>(
        _ request: Request, kind: String = "", lane: String = Outbox.defaultLane
    ) throws(OutboxError) -> OutboxEntry.ID {
        OutboxEntry.ID(try core.enqueue(request, kind: kind, lane: lane))
    }

    /// Stores a request to send, off the caller's thread, and returns once it is on disk.
    /// - Parameters:
    ///   - request: The endpoint to send.
    ///   - kind: A name of your own for what the entry is. Empty by default.
    ///   - lane: The lane. ``Outbox/defaultLane`` by default.
    /// - Returns: The entry's identifier.
    /// - Throws: ``OutboxError``; nothing was stored then.
    @discardableResult
    public func enqueue<Request: APIRequest>(
        _ request: Request, kind: String = "", lane: String = Outbox.defaultLane
    ) async throws(OutboxError) -> OutboxEntry.ID {
        let core = core
        let outcome = await Task.detached { () -> Result<UUID, OutboxError> in
            do throws(OutboxError) {
                return .success(try core.enqueue(request, kind: kind, lane: lane))
            } catch {
                return .failure(error)
            }
        }.value
        return OutboxEntry.ID(try outcome.get())
    }

    /// Stores a request to send, off the caller's thread, and calls `completion` on the main actor
    /// once it is on disk, or with the reason it is not.
    /// - Parameters:
    ///   - request: The endpoint to send.
    ///   - kind: A name of your own for what the entry is. Empty by default.
    ///   - lane: The lane. ``Outbox/defaultLane`` by default.
    ///   - completion: Called once with the entry's identifier or the ``OutboxError``.
    public func enqueue<Request: APIRequest>(
        _ request: Request, kind: String = "", lane: String = Outbox.defaultLane,
        completion: @escaping @MainActor @Sendable (Result<OutboxEntry.ID, OutboxError>) -> Void
    ) {
        let core = core
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome: Result<OutboxEntry.ID, OutboxError>
            do throws(OutboxError) {
                outcome = .success(OutboxEntry.ID(try core.enqueue(request, kind: kind, lane: lane)))
            } catch {
                outcome = .failure(error)
            }
            MainQueue.async { completion(outcome) }
        }
    }

    // MARK: - Entries

    /// The entries waiting to be sent, in the order they were enqueued.
    public var pending: [OutboxEntry] { core.pending }

    /// The entries the server refused (or that retrying cannot send), oldest first, each with its
    /// ``OutboxEntry/failure``. They stay until retried or discarded.
    public var deadLetters: [OutboxEntry] { core.deadLetters }

    /// Sends a dead letter again, with its key, from its place in its lane (for example after
    /// the user fixed what the server refused, or the server was fixed).
    /// - Throws: ``OutboxError/noSuchEntry(_:)`` when it is not a dead letter; a file error.
    public func retry(_ id: OutboxEntry.ID) throws(OutboxError) {
        try core.retry(id.uuid)
    }

    /// Removes a dead letter for good.
    /// - Throws: ``OutboxError/noSuchEntry(_:)`` when it is not a dead letter; a file error.
    public func discard(_ id: OutboxEntry.ID) throws(OutboxError) {
        try core.discard(id.uuid)
    }

    // MARK: - Results

    /// Decodes the responses of entries of `kind` as `type` (with the client's decoder and
    /// envelope) when their results are handed over: ``OutboxResponse/value`` holds it. Register
    /// at launch, before listening, so that results kept from an earlier launch decode too.
    public func register<Value: Decodable & Sendable>(_ type: Value.Type, forKind kind: String) {
        core.dispatcher.register({ try $0.decodeDefault(Value.self) }, forKind: kind)
    }

    /// Every entry's result, as an async sequence; see ``OutboxResults``.
    public var results: OutboxResults { OutboxResults(dispatcher: core.dispatcher) }

    /// Calls `handler` on the main actor with every result from now on, starting with those
    /// nobody has heard yet; `nil` stops calling the handler set before.
    public func onResult(_ handler: (@MainActor @Sendable (OutboxResult) -> Void)?) {
        core.dispatcher.setHandler(handler)
    }

    /// Told every result on the main actor, starting with those nobody has heard yet. Held weakly.
    @MainActor
    public var delegate: (any OutboxDelegate)? {
        get { core.dispatcher.delegate }
        set { core.dispatcher.setDelegate(newValue) }
    }
}
