import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory, from `/proc/self/status` (Linux): what the benchmark reports
/// and what the tests that bound a row's peak memory read.
public enum ProcessMemory {
    /// Whether ``resetPeak()`` works here; when it does not, peaks are the process's peak so far.
    public static let canResetPeak: Bool = resetPeak()

    /// Whether the thread or address sanitizer's run-time is in the process (their run-times
    /// export these entry points): its shadow memory and quarantine make resident sizes, and its
    /// instrumentation timings, say nothing about the code measured.
    public static let isSanitized: Bool = {
        #if canImport(Glibc)
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
        #else
        return false
        #endif
    }()

    /// The peak resident set size (`VmHWM`) in KiB, or `nil` where `/proc` is missing.
    public static func peakKiB() -> Int? { field("VmHWM:") }

    /// The current resident set size (`VmRSS`) in KiB, or `nil` where `/proc` is missing.
    public static func currentKiB() -> Int? { field("VmRSS:") }

    /// Returns freed heap memory to the system, then resets the peak to the current size (writing
    /// `5` to `/proc/self/clear_refs`, Linux 4.0+), so the next ``peakKiB()`` is the peak of what
    /// ran in between rather than what an earlier scenario left in the allocator.
    /// - Returns: whether the reset worked.
    @discardableResult
    public static func resetPeak() -> Bool {
        _ = mallocTrim?(0)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// glibc's `malloc_trim`, which the Glibc module does not import (it lives in `malloc.h`).
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            return line.dropFirst(name.count).split { $0 == " " || $0 == "\t" }.first.flatMap { Int($0) }
        }
        return nil
    }
}
