import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Delivers the cached response at once (if there is one), then the network's answer:
    /// "show what we have, then refresh" (YTKNetwork's `loadCacheWithError:` before `start`).
    ///
    /// ```swift
    /// client.send(GetFeed(), cached: { show($0.value) }, completion: { result in show(result.value) })
    /// ```
    ///
    /// Each result's ``ResponseMetadata/source`` says where it came from. `cached` is called at
    /// most once, and only for a usable entry; `completion` exactly once; both on the main actor,
    /// `cached` always first (if the network answers first, `cached` is not called: what
    /// is shown is never replaced by something older).
    /// - Parameters:
    ///   - request: The endpoint to call.
    ///   - info: What both sends tell plugins, added to the request's ``APIRequest/sendInfo``.
    ///     Empty by default.
    ///   - cached: Called with the cached response, if any, before the network's.
    ///   - completion: Called exactly once with the network's result.
    /// - Returns: The handle of the network request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, info: SendInfo = .empty,
        cached: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void,
        completion: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        // The network send starts once the lookup is over, so the lookup reads the cache as it was
        // before the send, and its answer reaches the main queue first. The cache's answer is
        // still dropped if the network's was delivered before it.
        let networkDone = Locked(false)
        let network = prepare(
            request,
            route: .inPlace { result in
                MainQueue.async {
                    networkDone.withLock { $0 = true }
                    completion(result)
                }
            }, options: SendOptions(cacheMode: .useCacheRevalidating, info: info))
        // Without a cache there is nothing to look up: only the network's answer comes.
        guard configuration.cache != nil else {
            network.start()
            return network.handle
        }
        _ = perform(
            request,
            route: .inPlace { result in
                if result.isSuccess {
                    MainQueue.async {
                        guard !networkDone.withLock({ $0 }) else { return }
                        cached(result)
                    }
                }
                network.start()
            }, options: SendOptions(cacheMode: .cacheOnly, info: info))
        return network.handle
    }

    /// Removes the cached response of a request (as built now, with its current headers).
    public func removeCachedResponse<Request: APIRequest>(for request: Request) {
        guard let cache = configuration.cache, let urlRequest = try? urlRequest(for: request),
            let caching = RequestCaching(
                cache: cache, policy: request.cachePolicy ?? configuration.cachePolicy, request: urlRequest,
                method: request.method,
                credential: ResolvedRequest(request, configuration: configuration).credential(
                    for: urlRequest.url, clientBaseURL: configuration.baseURL))
        else { return }
        cache.removeEntry(forKey: caching.key)
    }
}
