import Dispatch

/// Loads a ``PagedRequest`` page by page and keeps what it loaded: the pages, the accumulated
/// items, and where the list stands (current page, max page, total, has-more).
///
/// ```swift
/// let feed = Paginator(client: client, request: ListPosts())
/// _ = await feed.loadFirstPage()
/// if feed.snapshot.hasMore { _ = await feed.loadNextPage() }    // e.g. when the list scrolls to its end
/// _ = await feed.refresh()                                      // pull to refresh
/// ```
///
/// The paginator is an actor, so any task may call it; cancelling the awaiting Task cancels the
/// load it waits for. Closure and delegate code calls the same
/// paginator without a Task: ``loadFirstPage(completion:)``, ``loadNextPage(completion:)`` and
/// ``refresh(completion:)`` answer on the main actor, a ``delegate`` hears every
/// load on the main actor, and ``snapshot`` reads where the list stands without awaiting.
///
/// One load runs at a time, whichever form asked for it: a call made while a page is loading
/// waits for that load and returns its result instead of asking for the page again (use
/// `snapshot.items` or ``Page/number`` rather than appending every returned page). It stops at the end
/// and never asks for a page beyond it, also when the server repeats a cursor or answers an
/// earlier page than asked for (see ``PagedRequest`` for where the paging information comes from).
public actor Paginator<Request: PagedRequest> {
    /// One item of a page.
    public typealias Element = Request.Element

    /// What a load is for: the first page, the next one, or the first page again, replacing the others.
    enum Kind {
        case first, next, refresh
    }

    /// The load in flight.
    struct Load {
        let id: Int
        let kind: Kind
        let task: Task<APIResult<Page<Element>>?, Never>
    }

    /// What a call gets: an answer at once, or a load to wait for (one it started or joined).
    enum Step {
        case now(APIResult<Page<Element>>?)
        case wait(Load)
    }

    /// Everything the paginator knows, behind one lock, so that every form (async, closure,
    /// delegate) decides on the same state, in the order the calls were made.
    struct State {
        var book: PageBook<Element>
        var load: Load?
        var loads = 0
        /// Changes whenever the book is replaced, so a load started before a refresh is not recorded after it.
        var generation = 0
        /// The completion closures waiting for each load, by load id.
        var waiters: [Int: [@MainActor @Sendable (APIResult<Page<Element>>?) -> Void]] = [:]
        var delegate: WeakReference<any PaginatorDelegate>?
    }

    let client: APIClient
    private let request: Request
    let state: Locked<State>

    /// Creates a paginator; nothing is loaded until asked.
    /// - Parameters:
    ///   - client: The client that sends the pages.
    ///   - request: The endpoint; its ``PagedRequest/page`` is the first page.
    public init(client: APIClient, request: Request) {
        self.client = client
        self.request = request
        state = Locked(State(book: PageBook(first: request.page)))
    }

    /// Loads the first page, unless it is already loaded (then returns it without a request) or
    /// loading (then waits for that load).
    public func loadFirstPage() async -> APIResult<Page<Element>> {
        Self.firstPage(await outcome(of: step(.first)))
    }

    /// Loads the page after the last one loaded (the first page if none is).
    /// - Returns: The page, or its failure; `nil` at the end, when there is nothing more to load
    ///   (also when the server answered with a page beyond the end). A call made while a load is
    ///   running waits for that load and returns its result.
    public func loadNextPage() async -> APIResult<Page<Element>>? {
        await outcome(of: step(.next))
    }

    /// Loads the first page again and, when it succeeds, replaces everything loaded with it; on
    /// failure what was loaded stays. A next-page load in flight is cancelled; a first-page load
    /// or refresh in flight is awaited instead of starting another.
    public func refresh() async -> APIResult<Page<Element>> {
        Self.firstPage(await outcome(of: step(.refresh)))
    }

    /// Cancels the load in flight, if any; it completes as cancelled and nothing is recorded.
    public func cancel() {
        state.withLock { $0.load }?.task.cancel()
    }

    // MARK: - Loading

    private func outcome(of step: Step) async -> APIResult<Page<Element>>? {
        switch step {
        case .now(let result): return result
        case .wait(let load):
            return await withTaskCancellationHandler {
                await load.task.value
            } onCancel: {
                load.task.cancel()
            }
        }
    }

    /// Decides what a call of `kind` gets, and starts a load when one is needed. A `waiter`, when
    /// given, is registered in the same turn of the lock: it hears the load it started or joined
    /// exactly once, however soon that load ends.
    nonisolated func step(
        _ kind: Kind, waiter: (@MainActor @Sendable (APIResult<Page<Element>>?) -> Void)? = nil
    ) -> Step {
        let (step, replaced) = state.withLock { state -> (Step, Load?) in
            if kind == .first, let first = state.book.pages.first {
                return (.now(.success(first, first.metadata)), nil)
            }
            // Join the load in flight, unless this is a refresh and that load a next page.
            if let load = state.load, kind != .refresh || load.kind != .next {
                if let waiter { state.waiters[load.id, default: []].append(waiter) }
                return (.wait(load), nil)
            }
            let replaced = state.load
            let position: PagePosition
            let loadKind: Kind
            switch kind {
            case .first:
                (loadKind, position) = (.first, state.book.first)
            case .next:
                if state.book.isEmpty {
                    (loadKind, position) = (.first, state.book.first)
                } else if let next = state.book.next {
                    (loadKind, position) = (.next, next)
                } else {
                    return (.now(nil), nil)
                }
            case .refresh:
                (loadKind, position) = (.refresh, state.book.first)
            }
            let load = start(loadKind, at: position, in: &state)
            if let waiter { state.waiters[load.id] = [waiter] }
            return (.wait(load), replaced)
        }
        replaced?.task.cancel()
        return step
    }

    private nonisolated func start(_ kind: Kind, at position: PagePosition, in state: inout State) -> Load {
        state.loads += 1
        let id = state.loads
        let generation = state.generation
        var request = request
        request.page = position
        let task = Task { [client, request] in
            let result = await client.send(request)
            return self.finish(id, kind: kind, generation: generation, at: position, with: result)
        }
        let load = Load(id: id, kind: kind, task: task)
        state.load = load
        return load
    }

    private nonisolated func finish(
        _ id: Int, kind: Kind, generation: Int, at position: PagePosition, with result: APIResult<Request.Response>
    ) -> APIResult<Page<Element>>? {
        let (outcome, waiters, delegate) = state.withLock { state in
            if state.load?.id == id { state.load = nil }
            let outcome = record(result, kind: kind, generation: generation, at: position, in: &state)
            return (outcome, state.waiters.removeValue(forKey: id) ?? [], state.delegate)
        }
        announce(outcome, to: waiters, delegate: delegate)
        return outcome
    }

    private nonisolated func record(
        _ result: APIResult<Request.Response>, kind: Kind, generation: Int, at position: PagePosition,
        in state: inout State
    ) -> APIResult<Page<Element>>? {
        let response: Request.Response
        let metadata: ResponseMetadata
        switch result {
        case .success(let value, let responseMetadata): (response, metadata) = (value, responseMetadata)
        case .serverFailure(let failure): return .serverFailure(failure)
        case .transportError(let error): return .transportError(error)
        }
        guard generation == state.generation else {
            return .transportError(TransportError(.cancelled, message: "The page load was replaced by a refresh."))
        }
        let elements = request.elements(in: response)
        let info = request.pageInfo(in: response) ?? metadata.envelope?.page
        guard kind == .next else {
            var fresh = PageBook<Element>(first: state.book.first)
            let page = fresh.record(elements, info: info, at: position, metadata: metadata)
            state.book = fresh
            state.generation += 1
            return page.map { .success($0, metadata) }
        }
        return state.book.record(elements, info: info, at: position, metadata: metadata).map { .success($0, metadata) }
    }

    static func firstPage(_ result: APIResult<Page<Element>>?) -> APIResult<Page<Element>> {
        result ?? .transportError(TransportError(.badResponse, message: "The first page could not be recorded."))
    }
}
