import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestExecution {
    /// Looks the request up in the cache before its first attempt. Returns the result when the
    /// cache answers; otherwise may make the request conditional on a stale entry's validators.
    func consultCache(_ urlRequest: inout URLRequest) -> APIResult<Request.Response>? {
        let policy = request.cachePolicy ?? client.configuration.cachePolicy
        guard
            let caching = RequestCaching(
                cache: client.configuration.cache, policy: policy, request: urlRequest, method: request.method)
        else { return nil }
        let mode = cacheModeOverride ?? policy.mode
        let entry = mode == .ignoreCache ? nil : caching.entry(for: urlRequest)
        state.withLock {
            $0.caching = caching
            $0.cacheEntry = entry ?? (mode == .ignoreCache ? caching.entry(for: urlRequest) : nil)
        }
        switch mode {
        case .cacheOnly:
            guard let entry else {
                return .transportError(
                    TransportError(.notCached, message: "Nothing usable is cached for this request."))
            }
            return cachedResult(entry, for: urlRequest)
        case .cacheThenRefresh:
            guard let entry else { break }
            let refresh = RequestExecution(client: client, request: request, cacheModeOverride: .useCacheRevalidating) {
                _ in
            }
            client.processingQueue.async { refresh.start() }
            return cachedResult(entry, for: urlRequest)
        case .useCache, .useCacheRevalidating:
            guard let entry else { break }
            if mode == .useCache, entry.isFresh() { return cachedResult(entry, for: urlRequest) }
            urlRequest = caching.conditional(urlRequest, on: entry)
        case .ignoreCache:
            break
        }
        return nil
    }

    /// Turns a `304 Not Modified` to a conditional request into the refreshed cached response.
    func revalidated(
        _ outcome: Result<TransportResponse, TransportError>
    ) -> (
        Result<TransportResponse, TransportError>, ResponseSource
    ) {
        guard case .success(let response) = outcome, response.head.statusCode == 304 else {
            return (outcome, .network)
        }
        let (caching, entry) = state.withLock { ($0.caching, $0.cacheEntry) }
        guard let caching, let entry,
            let refreshed = caching.refresh(entry, with: response.response).transportResponse()
        else { return (outcome, .network) }
        return (.success(refreshed), .revalidated)
    }

    /// Answers a request that could not reach the server from a stale entry, when allowed.
    func offlineFallback(for result: APIResult<Request.Response>) -> APIResult<Request.Response> {
        guard case .transportError(let error) = result else { return result }
        let (caching, entry) = state.withLock { ($0.caching, $0.cacheEntry) }
        guard let caching, let entry, caching.canServeOffline(entry, after: error.reason) else { return result }
        let fallback = cachedResult(entry, for: entry.url)
        return fallback.isSuccess ? fallback : result
    }

    private func cachedResult(_ entry: CachedResponse, for urlRequest: URLRequest) -> APIResult<Request.Response> {
        guard let response = entry.transportResponse() else {
            return .transportError(TransportError(.notCached, message: "The cached response is unusable."))
        }
        let processor = ResponseProcessor(configuration: client.configuration, request: request, urlRequest: urlRequest)
        return processor.process(.success(response), elapsed: elapsed)
            .from(.cache(age: entry.age(), isStale: !entry.isFresh()))
    }

    private func cachedResult(_ entry: CachedResponse, for url: URL) -> APIResult<Request.Response> {
        cachedResult(entry, for: URLRequest(url: url))
    }
}

extension APIResult {
    /// The result with its metadata marked as coming from `source`.
    func from(_ source: ResponseSource) -> APIResult {
        guard source != .network, case .success(let value, var metadata) = self else { return self }
        metadata.source = source
        return .success(value, metadata)
    }
}
