// The recording side of path-trace: the SanitizerCoverage callbacks (every instrumented function
// calls __sanitizer_cov_trace_pc_guard on entry) and the switch that turns recording on and off.
#ifndef PATH_TRACE_RECORDER_H
#define PATH_TRACE_RECORDER_H

#include <stddef.h>
#include <stdint.h>

/// How many return addresses above the entered function an event keeps.
#define PT_CALLERS 4

/// One recorded function entry, or a marker (pc == 0, marker != 0).
typedef struct {
    /// The return address of the callback: an address just after the entry of the function entered.
    uintptr_t pc;
    /// The return addresses above it, read by following frame pointers: callers[0] is in the
    /// function's caller, callers[1] in that one's caller, ...; 0 past the last frame read.
    uintptr_t callers[PT_CALLERS];
    /// The frame address of the function entered (its frame pointer): a function called from it
    /// has a lower one, and everything recorded on the thread with a frame address at or below
    /// it has returned. 0 for a marker.
    uintptr_t frame;
    /// The recording thread, numbered from 1 in the order threads first recorded.
    uint32_t thread;
    /// 0 for a function entry, else the marker passed to pt_mark.
    uint32_t marker;
} pt_event;

/// How many guards (instrumented functions) the process registered; 0 means the program was
/// not built with -sanitize-coverage=func,trace-pc-guard.
uint64_t pt_guard_count(void);

/// Discards what was recorded and starts recording function entries on every thread.
void pt_start(void);
/// Records a marker event in the order of the entries.
void pt_mark(uint32_t marker);
/// Stops recording. Entries already being recorded on other threads finish.
void pt_stop(void);

/// How many events were recorded (at most pt_capacity()).
size_t pt_count(void);
/// The capacity of the buffer; events past it are dropped and counted in pt_dropped().
size_t pt_capacity(void);
size_t pt_dropped(void);
/// The recorded events, in the order they were recorded.
const pt_event *pt_events(void);

/// The name of recording thread `thread` (1-based) as it was when it first recorded ("" if none).
const char *pt_thread_name(uint32_t thread);
/// How many threads recorded.
uint32_t pt_thread_count(void);

#endif
