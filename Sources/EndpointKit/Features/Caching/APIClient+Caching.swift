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
        _ request: Request, info: SendInfo = SendInfo(),
        cached: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void,
        completion: @escaping @MainActor @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        // Either the cache's answer is delivered before the network's, or not at all: both hop to
        // the main queue in the order they arrive, and the cache's is dropped once the network's
        // went first.
        let networkDone = Locked(false)
        let lookup = SendOptions(cacheMode: .cacheOnly, info: info)
        // Without a cache there is nothing to look up: only the network's answer comes.
        if configuration.cache != nil {
            _ = perform(
                request,
                route: .inPlace { result in
                    guard result.isSuccess else { return }
                    MainQueue.async {
                        guard !networkDone.withLock({ $0 }) else { return }
                        cached(result)
                    }
                }, options: lookup)
        }
        let network = SendOptions(cacheMode: .useCacheRevalidating, info: info)
        return perform(
            request,
            route: .inPlace { result in
                MainQueue.async {
                    networkDone.withLock { $0 = true }
                    completion(result)
                }
            }, options: network)
    }

    /// Removes the cached response of a request (as built now, with its current headers).
    public func removeCachedResponse<Request: APIRequest>(for request: Request) {
        guard let cache = configuration.cache, let urlRequest = try? urlRequest(for: request),
            let caching = RequestCaching(
                cache: cache, policy: request.cachePolicy ?? configuration.cachePolicy, request: urlRequest,
                method: request.method)
        else { return }
        cache.removeEntry(forKey: caching.key)
    }
}
