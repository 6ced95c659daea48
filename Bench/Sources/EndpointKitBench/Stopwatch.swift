#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock and process CPU time of one measured run.
struct Stopwatch {
    private let wallStart: UInt64
    private let cpuStart: UInt64

    /// Starts measuring now.
    init() {
        wallStart = Self.nanoseconds(CLOCK_MONOTONIC)
        cpuStart = Self.nanoseconds(CLOCK_PROCESS_CPUTIME_ID)
    }

    /// Seconds of wall-clock time since the start.
    var wallSeconds: Double { Double(Self.nanoseconds(CLOCK_MONOTONIC) &- wallStart) / 1e9 }

    /// Seconds of CPU time this process (all its threads, not the server) used since the start.
    var cpuSeconds: Double { Double(Self.nanoseconds(CLOCK_PROCESS_CPUTIME_ID) &- cpuStart) / 1e9 }

    private static func nanoseconds(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
