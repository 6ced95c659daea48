import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response cache as one send sees it: the stage of every cacheable send of a client that has
/// a ``ResponseCache``.
///
/// Before the first attempt it looks the request up: a usable entry answers at once (or, for a
/// stale entry, the request is made conditional on its validators). A `304` to that conditional
/// request becomes the cached response; a response from the network is stored when HTTP rules
/// allow; a send that fails without reaching the server is answered by a stale entry when the
/// policy allows it.
final class CacheStage: RequestStage {
    private struct State {
        var caching: RequestCaching?
        var entry: CachedResponse?
    }

    private let cache: ResponseCache
    private let policy: CachePolicy
    private let mode: CachePolicy.Mode
    private let method: HTTPMethod
    private let state = Locked(State())

    var hooks: StageHooks { [.willSend, .didReceive, .didProcess, .fallback] }

    init(cache: ResponseCache, policy: CachePolicy, mode: CachePolicy.Mode, method: HTTPMethod) {
        self.cache = cache
        self.policy = policy
        self.mode = mode
        self.method = method
    }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        guard context.attempt == 1 else { return nil }
        guard
            let caching = RequestCaching(
                cache: cache, policy: policy, request: request.urlRequest, method: method,
                credential: request.credential)
        else {
            // Not cacheable (credentials without `cachesSensitiveData`...): a cache-only send still
            // never reaches the network.
            return mode == .cacheOnly ? Self.notCached : nil
        }
        // Even when the cache is not read, a stale entry may still answer offline.
        let entry = caching.entry(for: request.urlRequest)
        state.withLock { state in
            state.caching = caching
            state.entry = entry
        }
        switch mode {
        case .cacheOnly:
            guard let entry else { return Self.notCached }
            return answer(from: entry)
        case .useCache, .useCacheRevalidating:
            guard let entry else { return nil }
            if mode == .useCache, entry.isFresh() { return answer(from: entry) }
            request.urlRequest = caching.conditional(request.urlRequest, on: entry)
        case .ignoreCache:
            break
        }
        return nil
    }

    private static var notCached: StageAnswer {
        .failure(TransportError(.notCached, message: "Nothing usable is cached for this request."))
    }

    func didReceive(
        _ outcome: inout Result<TransportResponse, TransportError>, source: inout ResponseSource,
        request: URLRequest, context: RequestContext
    ) {
        guard case .success(let response) = outcome, response.head.statusCode == 304 else { return }
        let (caching, entry) = state.withLock { ($0.caching, $0.entry) }
        guard let caching, let entry,
            var refreshed = caching.refresh(entry, with: response.response).transportResponse()
        else { return }
        refreshed.metrics = response.metrics
        outcome = .success(refreshed)
        source = .revalidated
    }

    func didProcess<Value: Sendable>(
        _ result: APIResult<Value>, response: TransportResponse?, source: ResponseSource
    ) -> APIResult<Value> {
        if source == .network, result.isSuccess, let response, let caching = state.withLock({ $0.caching }),
            let request = result.metadata?.request
        {
            caching.store(response, for: request)
        }
        return result
    }

    func fallback(for error: TransportError) -> StageAnswer? {
        let (caching, entry) = state.withLock { ($0.caching, $0.entry) }
        guard let caching, let entry, caching.canServeOffline(entry, after: error.reason) else { return nil }
        return answer(from: entry)
    }

    private func answer(from entry: CachedResponse) -> StageAnswer {
        guard let response = entry.transportResponse() else {
            return .failure(TransportError(.notCached, message: "The cached response is unusable."))
        }
        return .response(response, source: .cache(age: entry.age(), isStale: !entry.isFresh()))
    }
}

/// The feature that gives cacheable sends their ``CacheStage``.
struct CacheFeature: ClientFeature {
    let cache: ResponseCache
    let defaultPolicy: CachePolicy

    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)? {
        let policy = request.cachePolicy ?? defaultPolicy
        let method = request.method
        // A streamed body is never stored, nor answered from the cache; nor is the answer of a
        // request that decides its own redirects (its handler may have sent it elsewhere).
        guard policy.cacheableMethods.contains(method), !options.streamsBody, request.redirectHandler == nil else {
            return options.cacheMode == .cacheOnly ? NotCachedStage() : nil
        }
        return CacheStage(cache: cache, policy: policy, mode: options.cacheMode ?? policy.mode, method: method)
    }
}

/// The stage of a cache-only send the cache cannot answer: it fails as not cached, so the send
/// never reaches the network.
struct NotCachedStage: RequestStage {
    var hooks: StageHooks { [.willSend] }

    func willSend(_ request: inout TransportRequest, context: RequestContext) -> StageAnswer? {
        .failure(TransportError(.notCached, message: "This request is not cacheable: nothing is cached for it."))
    }
}
