import CPathTraceRecorder
import Foundation

/// One function entry (or marker) as the C recorder kept it.
struct RawEvent: Sendable {
    /// An address just after the entry of the function entered; 0 for a marker.
    let pc: UInt
    /// Return addresses in the callers, nearest first (0 where the frame walk stopped).
    let callers: [UInt]
    /// The frame address (frame pointer) of the function entered; 0 for a marker.
    let frame: UInt
    /// The recording thread, numbered from 1.
    let thread: UInt32
    /// 0 for an entry, else a ``Marker``.
    let marker: UInt32
}

/// Markers the program puts into the recording.
enum Marker: UInt32 {
    /// The awaited value came back to the caller.
    case valueReturned = 1
}

/// What one traced window recorded.
struct Recording: Sendable {
    let events: [RawEvent]
    /// Names of the recording threads (empty for unnamed ones), by number.
    let threadNames: [UInt32: String]
    /// Events that did not fit the buffer.
    let dropped: Int
}

/// The Swift face of the C recorder (`CPathTraceRecorder`).
enum Recorder {
    /// Whether this program was built with `-sanitize-coverage=func,trace-pc-guard`.
    static var isInstrumented: Bool { pt_guard_count() > 0 }

    /// How many instrumented functions the process has.
    static var instrumentedFunctionCount: UInt64 { pt_guard_count() }

    /// Records every function entry while `body` runs, plus `settle` afterwards (so that work the
    /// request leaves behind on other threads is seen, and marked as after the value).
    static func trace(settle: Duration, _ body: () async throws -> Void) async throws -> Recording {
        pt_start()
        do {
            try await body()
        } catch {
            pt_stop()
            throw error
        }
        try? await Task.sleep(for: settle)
        pt_stop()
        // A thread that claimed a slot just before the stop may still be writing it.
        try? await Task.sleep(for: .milliseconds(50))
        return collect()
    }

    /// Records a marker in the order of the entries.
    static func mark(_ marker: Marker) {
        pt_mark(marker.rawValue)
    }

    private static func collect() -> Recording {
        let count = pt_count()
        var events: [RawEvent] = []
        events.reserveCapacity(count)
        if let base = pt_events() {
            for index in 0..<count {
                let event = base[index]
                let callers = withUnsafeBytes(of: event.callers) { Array($0.bindMemory(to: UInt.self)) }
                if event.pc == 0 && event.marker == 0 { continue }  // claimed, never written
                events.append(
                    RawEvent(
                        pc: event.pc, callers: callers, frame: event.frame, thread: event.thread, marker: event.marker))
            }
        }
        var names: [UInt32: String] = [:]
        let threads = pt_thread_count()
        if threads > 0 {
            for thread in 1...threads {
                names[thread] = pt_thread_name(thread).map { String(cString: $0) } ?? ""
            }
        }
        return Recording(events: events, threadNames: names, dropped: pt_dropped())
    }
}
