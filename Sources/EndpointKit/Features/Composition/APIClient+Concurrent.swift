import Dispatch
import Foundation

extension APIClient {
    /// Sends several requests of one type at once, at most `maxConcurrent` at a time, and returns
    /// every request's own result in the order given: one failing upload does not hide the
    /// others.
    ///
    /// ```swift
    /// let results = await client.sendAll(photos.map { UploadPhoto(file: $0) }, maxConcurrent: 3)
    /// let failed = results.indices.filter { !results[$0].isSuccess }
    /// ```
    /// - Parameters:
    ///   - requests: The requests, in the order results are wanted.
    ///   - maxConcurrent: How many run at the same time; 4 by default.
    /// - Returns: One result per request, in order.
    public func sendAll<Request: APIRequest>(
        _ requests: [Request], maxConcurrent: Int = 4
    ) async
        -> [APIResult<Request.Response>]
    {
        guard !requests.isEmpty else { return [] }
        return await withTaskGroup(of: (Int, APIResult<Request.Response>).self) { group in
            var results = [APIResult<Request.Response>?](repeating: nil, count: requests.count)
            var next = 0
            for _ in 0..<min(max(1, maxConcurrent), requests.count) {
                let index = next
                group.addTask { (index, await self.send(requests[index])) }
                next += 1
            }
            for await (index, result) in group {
                results[index] = result
                if next < requests.count {
                    let index = next
                    group.addTask { (index, await self.send(requests[index])) }
                    next += 1
                }
            }
            return results.map { $0 ?? .transportError(.cancelled()) }
        }
    }

    /// Sends several requests of one type at once and calls `completion` once, on the callback
    /// queue, with every result in order (see ``sendAll(_:maxConcurrent:)``).
    /// - Returns: A task that cancels every request still running when cancelled.
    @discardableResult
    public func sendAll<Request: APIRequest>(
        _ requests: [Request], maxConcurrent: Int = 4,
        completion: @escaping @Sendable ([APIResult<Request.Response>]) -> Void
    ) -> Task<Void, Never> {
        let queue = configuration.callbackQueue
        return Task {
            let results = await sendAll(requests, maxConcurrent: maxConcurrent)
            queue.async { completion(results) }
        }
    }
}
