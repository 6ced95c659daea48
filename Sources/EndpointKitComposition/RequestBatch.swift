import EndpointKit

/// Several requests sent side by side, each result kept in the order the requests were given:
/// YTKNetwork's `YTKBatchRequest`, typed.
///
/// Made from requests of different types (the results are a tuple, each with its own response
/// type) or from an array of one type (the results are an array), then sent with
/// `client.send(_:)` in any of the three forms.
///
/// ```swift
/// let home = RequestBatch(GetUser(id: 7), GetFeed(), GetAds(), policy: .failFast)
/// let batch = await client.send(home)
/// let (user, feed, ads) = batch.results        // each request's own typed APIResult
///
/// let avatars = RequestBatch(ids.map { GetAvatar(id: $0) }, maxConcurrent: 2)
/// client.send(avatars) { batch in self.images = batch.results.compactMap(\.value) }
/// ```
///
/// A value: sending it again sends its requests again.
public struct RequestBatch<Results: Sendable>: Sendable {
    /// What one send of the batch runs: an operation per request, and where their results are read
    /// once all of them ended.
    typealias Plan = @Sendable (APIClient) -> (operations: [BatchOperation], results: @Sendable () -> Results)

    let plan: Plan
    /// What a failure does to the rest.
    let policy: BatchPolicy
    /// How many requests run at the same time (at least one).
    let maxConcurrent: Int

    /// A batch of requests of different types; the results are a tuple in the same order.
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default. Requests start in
    ///     order as others end.
    public init<each Request: APIRequest>(
        _ requests: repeat each Request, policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4
    ) where Results == (repeat APIResult<(each Request).Response>) {
        let requests = (repeat each requests)
        plan = { client in
            let slots = (repeat slot(for: each requests))
            var operations: [BatchOperation] = []
            repeat operations.append((each slots).operation(sending: each requests, through: client))
            return (operations, { (repeat (each slots).result) })
        }
        self.policy = policy
        self.maxConcurrent = maxConcurrent
    }

    /// A batch of any number of requests of one type; the results are an array in the same order.
    /// - Parameters:
    ///   - requests: The requests; results come back in this order.
    ///   - policy: What a failure does to the rest; ``BatchPolicy/keepPartial`` by default.
    ///   - maxConcurrent: How many requests run at the same time; 4 by default.
    public init<Request: APIRequest>(
        _ requests: [Request], policy: BatchPolicy = .keepPartial, maxConcurrent: Int = 4
    ) where Results == [APIResult<Request.Response>] {
        plan = { client in
            let slots = requests.map(slot(for:))
            let operations = zip(slots, requests).map { $0.operation(sending: $1, through: client) }
            return (operations, { slots.map(\.result) })
        }
        self.policy = policy
        self.maxConcurrent = maxConcurrent
    }
}

/// A new place for one request's result in one send of a batch.
private func slot<Request: APIRequest>(for request: Request) -> BatchSlot<Request.Response> {
    BatchSlot()
}
