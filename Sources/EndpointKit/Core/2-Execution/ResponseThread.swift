import Dispatch

/// Where a send processes each response: the one thread hop of a response, named. The transport
/// calls back on its own thread; validation, decoding and delivery then run on the client's
/// processing queue, or on the task awaiting the send (``AwaitingCaller``), which saves a hop.
enum ResponseThread: Sendable {
    /// The client's concurrent processing queue.
    case processingQueue(DispatchQueue)
    /// The task awaiting the send, which runs what is posted to it once it is resumed.
    case awaitingCaller(AwaitingCaller)

    /// Hands `work` over to this thread.
    func hop(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .processingQueue(let queue): queue.async(execute: work)
        case .awaitingCaller(let caller): caller.post(work)
        }
    }
}
