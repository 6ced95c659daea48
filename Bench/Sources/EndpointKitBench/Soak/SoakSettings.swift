import BenchTestServer
import Foundation

/// What a soak run does and what it tolerates.
struct SoakSettings: Sendable {
    /// Requests sent.
    var requests: Int
    /// Requests in flight at once.
    var inFlight: Int
    /// The seed of the mix (``SoakPlan``).
    var seed: UInt64
    /// The transport under test.
    var transport: SoakTransport
    /// The test server, with ``SoakRoutes`` installed.
    var baseURL: URL
    /// The link between client and server: `nil` for loopback as it is, else a ``LinkImpairer``
    /// with this profile (seeded with ``seed``) in front of the server.
    var link: LinkProfile?
    /// Open descriptors allowed above the start once the client is gone. The client's connections
    /// are closed by then, so the count should be back exactly; the slack is for descriptors other
    /// code in the process (a test runner, the in-process server's threads finishing) opens or
    /// closes meanwhile. A leak of one descriptor per thousand requests is still well above it.
    var fileDescriptorTolerance = 8
    /// Resident memory allowed above the start (KiB) once the client is gone and freed memory was
    /// returned (`malloc_trim`), before the transport's own allowance
    /// (``SoakTransport/retainedBytesPerRequest``). What stays is allocator fragmentation and
    /// per-thread arenas, not growth with the request count (CurlTransport ends about 1 MiB above
    /// its start after 100,000 requests); 16 MiB still catches a leak of 170 bytes a request over
    /// 100,000 requests.
    var residentMemoryBaseToleranceKiB = 16 * 1024
    /// The longest wait for the next completion before the rest count as lost (seconds); well
    /// above the longest request timeout (30 s).
    var stallLimit: TimeInterval = 60
    /// The longest a run sends and waits for completions (seconds); what has not completed by
    /// then counts as lost. `nil` for no limit beyond ``stallLimit``.
    var timeLimit: TimeInterval?
    /// The longest wait for the registries and descriptors to settle (seconds).
    var settleLimit: TimeInterval = 15
    /// The client's total deadline for requests that set none (seconds): generous, so that only
    /// the planned timeouts happen.
    var requestTimeout: TimeInterval = 30

    /// Resident memory allowed above the start (KiB): the base tolerance and what the transport
    /// itself keeps per request.
    var residentMemoryToleranceKiB: Int {
        residentMemoryBaseToleranceKiB + requests * transport.retainedBytesPerRequest / 1024
    }

    /// Requests of the warm-up run before the start is measured; `nil` for the default
    /// (``warmupRequests``).
    var warmup: Int?

    /// Requests of the warm-up run before the start is measured: ``warmup``, else enough to open
    /// every connection a few times over.
    var warmupRequests: Int { warmup ?? min(requests, max(256, inFlight * 4)) }
}
