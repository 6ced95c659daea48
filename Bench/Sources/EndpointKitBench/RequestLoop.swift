/// How the measured code issues its requests: the loops a user would write.
enum RequestLoop {
    /// Awaits `count` calls of `request`, one after the other.
    static func sequential(_ count: Int, _ request: @Sendable () async throws -> Void) async throws {
        for _ in 0..<count {
            try await request()
        }
    }

    /// Makes `count` calls of `request` with `width` of them in flight at any time, in a task group
    /// that starts the next call as soon as one finishes.
    static func windowed(
        _ count: Int, width: Int, _ request: @escaping @Sendable () async throws -> Void
    )
        async throws
    {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(width, count) {
                group.addTask { try await request() }
                started += 1
            }
            while try await group.next() != nil {
                guard started < count else { continue }
                group.addTask { try await request() }
                started += 1
            }
        }
    }
}
