import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// Delivers the cached response at once (if there is one), then the network's answer:
    /// "show what we have, then refresh". Each result's ``ResponseMetadata/source`` says where it
    /// came from. `cached` is called at most once, `completion` exactly once, both on the
    /// callback queue.
    /// - Returns: The handle of the network request.
    @discardableResult
    public func send<Request: APIRequest>(
        _ request: Request, cached: @escaping @Sendable (APIResult<Request.Response>) -> Void,
        completion: @escaping @Sendable (APIResult<Request.Response>) -> Void
    ) -> RequestHandle {
        let queue = configuration.callbackQueue
        _ = perform(request, delegate: nil, progress: nil, cacheMode: .cacheOnly) { result in
            if result.isSuccess { queue.async { cached(result) } }
        }
        return perform(request, delegate: nil, progress: nil, cacheMode: .useCacheRevalidating) { result in
            queue.async { completion(result) }
        }
    }

    /// The cached response (if any), then the network's answer, as an async sequence; see
    /// ``send(_:cached:completion:)``.
    public func results<Request: APIRequest>(for request: Request) -> AsyncStream<APIResult<Request.Response>> {
        let (stream, continuation) = AsyncStream<APIResult<Request.Response>>.makeStream()
        let ordered = Locked<(cachedDone: Bool, pending: APIResult<Request.Response>?)>((false, nil))
        _ = perform(request, delegate: nil, progress: nil, cacheMode: .cacheOnly) { result in
            if result.isSuccess { continuation.yield(result) }
            let pending = ordered.withLock { state -> APIResult<Request.Response>? in
                state.cachedDone = true
                return state.pending
            }
            if let pending {
                continuation.yield(pending)
                continuation.finish()
            }
        }
        let handle = perform(request, delegate: nil, progress: nil, cacheMode: .useCacheRevalidating) { result in
            let deliverNow = ordered.withLock { state -> Bool in
                if state.cachedDone { return true }
                state.pending = result
                return false
            }
            if deliverNow {
                continuation.yield(result)
                continuation.finish()
            }
        }
        continuation.onTermination = { _ in handle.cancel() }
        return stream
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
