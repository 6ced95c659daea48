import Foundation

/// How many requests per second the benchmark server answers, measured with
/// ``RawHTTPConnection``s (keep-alive, one request in flight per connection).
struct ServerCapacity: Encodable {
    /// Connections used, each on its own thread.
    let connections: Int
    /// Responses per second over all connections.
    let requestsPerSecond: Double

    /// Hammers `GET path` over `connections` connections for `seconds` seconds.
    static func measure(
        port: UInt16, path: String, connections: Int, seconds: Double
    ) throws(BenchError)
        -> ServerCapacity
    {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        let results = Results()
        let group = DispatchGroup()
        let stopwatch = Stopwatch()
        for _ in 0..<connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do {
                    let connection = try RawHTTPConnection(port: port)
                    var count = 0
                    while stopwatch.wallSeconds < seconds {
                        guard try connection.exchange(request) == 200 else {
                            throw BenchError.server("GET \(path) did not answer 200")
                        }
                        count += 1
                    }
                    results.add(count: count)
                } catch {
                    results.add(error: error as? BenchError ?? .server("\(error)"))
                }
            }
            thread.start()
        }
        group.wait()
        let elapsed = stopwatch.wallSeconds
        let (total, failure) = results.current
        if let failure { throw failure }
        return ServerCapacity(connections: connections, requestsPerSecond: Double(total) / elapsed)
    }

    /// Counts from the probing threads.
    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        private var failure: BenchError?

        func add(count: Int) { lock.withLock { total += count } }
        func add(error: BenchError) { lock.withLock { failure = failure ?? error } }
        var current: (Int, BenchError?) { lock.withLock { (total, failure) } }
    }
}
